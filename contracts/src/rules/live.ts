// The live mocks' messages, written once without zod: the exam screen recognises a refusal by its text from this
// file alone (`@quiz/contracts/rules/live`), and the contracts and the server word their answers with it.

export const liveMessages = {
  joinMinutes: 'Join minutes must be a whole number from 1 to 180.',
  notStarted: 'This live mock has not started yet.',
  joinClosed: 'The join window of this live mock has closed.',
  notLive: 'This quiz is not a live mock.',
  alreadyStarted: 'You have already started this live mock.',
  practiceNotOpen: 'Practice on this live mock opens once everyone sitting it has finished.',
  startsBeforeQuiz: 'A live mock must start at or after the quiz opens.',
  endsBeforeCommonEnd: 'The quiz must stay open until the live mock ends (its start plus the duration).',
  joinAfterEnd: 'The join window must close by the time the live mock ends: at most its duration in minutes.',
  anonymousName: 'Learner',
  notRegistered: 'Register for this live mock to download its paper.',
  paperNotOffered: "This live mock's paper can be downloaded from 24 hours before its start.",
  frozenPaper: 'A live mock sits one frozen paper: unschedule it before drawing per attempt.',
  attemptsRunning:
    'Learners are sitting this quiz now: schedule it as a live mock once their attempts have ended, or make a copy.',
} as const

/** How long before `starts_at` a registered learner may fetch the encrypted paper (API.md "Live mocks"). */
export const LIVE_PAPER_AHEAD_MS = 24 * 60 * 60 * 1000
