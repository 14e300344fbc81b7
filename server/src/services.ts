import type { FastifyBaseLogger } from 'fastify'
import { createAdminService } from './admin/admin.service'
import { createAuditLogService } from './admin/audit-log.service'
import { createBankService } from './admin/bank.service'
import { createPassagesService } from './admin/passages.service'
import { createPlatformBankService } from './admin/platform-bank.service'
import { createDraftsService } from './admin/drafts.service'
import { createAttemptSessionService } from './attempts/attempt-session.service'
import { createAttemptLifecycle } from './attempts/attempts.service'
import { createCurrentQuestions } from './attempts/current-questions'
import { createNewAttempts } from './attempts/new-attempt'
import { createOwedCardsDrainer } from './attempts/owed-cards-drainer'
import { createPaperAttempts } from './attempts/paper-attempts.service'
import { createSubmitService } from './attempts/submit.service'
import { createAuthService } from './auth/auth.service'
import { createCodeHasher, createOtpService } from './auth/otp.service'
import { createFlagQueueService } from './challenges/flag-queue.service'
import { createFlagsService } from './challenges/flags.service'
import { createKeyDecisionService } from './challenges/key-decision.service'
import type { AppContext } from './context'
import { createHealthService } from './health/health.service'
import { createRateLimiter, rateLimitRules } from './http/rate-limit'
import { createImportsService } from './imports/imports.service'
import { createInstitutesService } from './institutes/institutes.service'
import { createMembersService } from './institutes/members.service'
import { createInstituteSettingsService } from './institutes/settings.service'
import { createPlatformService } from './platform/platform.service'
import { createLearnersService } from './institutions/learners.service'
import { createReportsService } from './institutions/reports.service'
import { createAnnouncementSender } from './live/announcement-sender'
import { createLiveService } from './live/live.service'
import { createLivePapers } from './live/live-paper'
import { createPaperKeys } from './attempts/paper-keys.service'
import { createMockEnder } from './live/mock-ends'
import { createDeliveryDrainer } from './notifications/delivery-drainer'
import { createNotificationService } from './notifications/notifications.service'
import { createPaymentService } from './payments/payments.service'
import { createPictureSweeper } from './pictures/picture-sweeper'
import { createPicturesService } from './pictures/pictures.service'
import { createNationalService } from './national/national.service'
import { createPlanService } from './plans/plans.service'
import { createFileSweeper } from './db/file-sweep'
import { createPracticeService } from './practice/practice.service'
import { createDailyService } from './daily/daily.service'
import { createDailyJob } from './daily/daily-jobs'
import { choiceMarker, createOutcomes } from './outcomes/outcomes.service'
import { createQuestionPapers } from './questions/question-papers'
import { createShowLog } from './questions/show-log'
import { createQuizService } from './quizzes/quizzes.service'
import { createResultsService } from './results/results.service'
import { createBookletPagesService } from './sittings/booklet-pages.service'
import { createScansService } from './sittings/scans.service'
import { createSittingsService } from './sittings/sittings.service'
import { createProfileService } from './users/profile.service'
import { createUsersService } from './users/users.service'
import { createAnsweringService } from './written/answering.service'
import { createMarkingService } from './written/marking.service'
import { createRegradeService } from './written/regrades.service'
import { createRubricService } from './written/rubric.service'
import { writtenMarker } from './written/written-marker'

// Once on purpose: one paper cache, attempt lifecycle, show log, rate limiter and code hasher (docs/decisions/051).
export function createServices(context: AppContext, log: FastifyBaseLogger) {
  const rateLimits = { limiter: createRateLimiter(context), rules: rateLimitRules(context.config.rateLimits) }
  const hasher = createCodeHasher(context.config.jwtSecret)

  const pictures = createPicturesService(context)
  const papers = createQuestionPapers({ picturesAhead: pictures.readAhead })
  const outcomes = createOutcomes({ markers: [choiceMarker, writtenMarker] })
  const lifecycle = createAttemptLifecycle({ ...context, papers, outcomes })
  const currentQuestions = createCurrentQuestions()
  const shows = createShowLog(context.database.db, log)
  const newAttempts = createNewAttempts({ papers, currentQuestions, shows })
  const paperKeys = createPaperKeys(context)
  const live = createLiveService({ ...context, lifecycle })
  const bank = createBankService(context)
  const paperAttempts = createPaperAttempts({ lifecycle, newAttempts })
  const writtenAnswers = createAnsweringService(context)
  const institutes = createInstitutesService(context)
  const instituteSettings = createInstituteSettingsService({ ...context, pictures, institutes })
  const daily = createDailyService(context)

  return {
    rateLimits,
    health: createHealthService(context),
    institutes,
    instituteSettings,
    members: createMembersService(context),
    pictures,
    national: createNationalService({ ...context, live }),
    // docs/decisions/097: the same institutes service as the host hook's, so a change drops its host table at once.
    platform: {
      institutes: createPlatformService({ ...context, institutes, pictures }),
      audit: createAuditLogService({ ...context, table: 'platform_audit_events' }),
    },
    auth: {
      logins: createAuthService({ ...context, ...rateLimits }),
      otp: createOtpService({ ...context, ...rateLimits, hasher, log, institutes }),
    },
    users: {
      accounts: createUsersService({ ...context, ...rateLimits, hasher }),
      profiles: createProfileService({ ...context, ...rateLimits }),
    },
    quizzes: createQuizService({ ...context, lifecycle, currentQuestions, live }),
    attempts: {
      lifecycle,
      shows,
      session: createAttemptSessionService({
        ...context,
        papers,
        lifecycle,
        newAttempts,
        paperKeys,
        savedWritten: writtenAnswers.savedAnswers,
      }),
      submit: createSubmitService({ ...context, papers, lifecycle, newAttempts, paperKeys }),
    },
    live,
    livePapers: createLivePapers({ ...context, papers, currentQuestions, paperKeys, readPicture: pictures.read }),
    results: createResultsService({ ...context, lifecycle }),
    practice: createPracticeService(context),
    daily,
    writtenAnswers,
    challenges: {
      flags: createFlagsService(context),
      queue: createFlagQueueService(context),
      decisions: createKeyDecisionService(context),
    },
    admin: {
      quizzes: createAdminService(context),
      drafts: createDraftsService(context),
      bank,
      passages: createPassagesService(context),
      platformBank: createPlatformBankService({ ...context, bank }),
      auditLog: createAuditLogService(context),
    },
    sittings: {
      sittings: createSittingsService({ ...context, papers, paperAttempts }),
      scans: createScansService({ ...context, papers, paperAttempts }),
      pages: createBookletPagesService({ ...context, papers, paperAttempts }),
    },
    imports: createImportsService({ ...context, bank, pictures }),
    written: {
      rubrics: createRubricService(context),
      marking: createMarkingService(context),
      regrades: createRegradeService(context),
    },
    institutions: {
      reports: createReportsService(context),
      learners: createLearnersService(context),
    },
    plans: createPlanService(context),
    payments: createPaymentService({ ...context, log, merchantKeys: instituteSettings.merchantKeys }),
    notifications: createNotificationService(context),
    /** Started when the app is ready; stopped, their work in flight awaited, before the database closes. */
    jobs: {
      deliveries: createDeliveryDrainer(context, log),
      announcements: createAnnouncementSender(context, log),
      mockEnds: createMockEnder(context, lifecycle, log),
      pictureSweep: createPictureSweeper(context, pictures, log),
      fileSweep: createFileSweeper(context, log),
      owedCards: createOwedCardsDrainer(context, log),
      daily: createDailyJob(context, daily, log),
    },
  }
}

export type Services = ReturnType<typeof createServices>
