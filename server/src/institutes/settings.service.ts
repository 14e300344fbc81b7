import {
  PICTURE_URL_PATTERN,
  pictureMessages,
  type InstituteSettings,
  type InstituteSettingsUpdate,
  type PaymentProvider,
} from '@quiz/contracts'
import type { Updateable } from 'kysely'
import { changedFields, recordAudit, type AuditActor, type AuditValues } from '../audit/audit-log'
import type { Config } from '../config'
import type { Database } from '../db/database'
import type { InstituteTable } from '../db/schema'
import { FIRST_INSTITUTE_ID } from '../db/tenancy'
import { NotFound, ValidationFailed } from '../http/errors'
import type { Clock } from '../lib/clock'
import { decodeDataUrl, type PictureRefusal } from '../pictures/picture-encoding'
import type { PicturesService } from '../pictures/pictures.service'
import { findLogo } from './institutes.repository'
import type { InstitutesService } from './institutes.service'
import { createSecretBox } from './secret-box'
import {
  deletePaymentKey,
  findInstituteSettings,
  listPaymentKeys,
  savePaymentKey,
  updateInstitute,
  type InstituteSettingsRow,
  type PaymentKeyProvider,
  type PaymentKeyRow,
} from './settings.repository'

/** The merchant keys an institute's payments are started and verified with (docs/decisions/099). */
export interface MerchantKeys {
  khalti?: { secretKey: string }
  esewa?: { productCode: string; secretKey: string }
}

const refusals: Record<PictureRefusal, string> = {
  not_a_picture: pictureMessages.notAPicture,
  too_large: pictureMessages.tooLarge,
  too_many_pixels: pictureMessages.tooManyPixels,
  too_costly: pictureMessages.tooCostly,
}

// The providers' published test values (as config.ts refuses them for main's keys): a payment from a public test
// wallet would grant real paid access, so a live server takes none of them as an institute's keys either.
const ESEWA_TEST_PRODUCT_CODE = 'EPAYTEST'
const ESEWA_TEST_SECRET_KEY = '8gBm/:&EnhH.1/q'
const testKeyMessage = 'This is a test key: this server takes live payments (PAYMENT_SANDBOX is off).'

function testKeyErrors(body: InstituteSettingsUpdate) {
  const errors: Record<string, string[]> = {}
  if (body.khalti?.secret_key && /^test_/i.test(body.khalti.secret_key)) errors['khalti.secret_key'] = [testKeyMessage]
  if (body.esewa?.merchant_code?.toUpperCase() === ESEWA_TEST_PRODUCT_CODE)
    errors['esewa.merchant_code'] = [testKeyMessage]
  if (body.esewa?.secret_key === ESEWA_TEST_SECRET_KEY) errors['esewa.secret_key'] = [testKeyMessage]
  return errors
}

// A GET's "set" sent back unchanged keeps the stored secret, as leaving the field out does.
const KEEP = 'set'
const PROVIDERS: readonly PaymentKeyProvider[] = ['khalti', 'esewa']
const sealContext = (institute: number, provider: PaymentKeyProvider) => `institute:${institute}:${provider}`

export function createInstituteSettingsService({
  database,
  config,
  clock,
  pictures,
  institutes,
}: {
  database: Database
  config: Pick<Config, 'jwtSecret' | 'payments' | 'env'>
  clock: Clock
  pictures: Pick<PicturesService, 'encode' | 'alreadyStored' | 'saveEncoded'>
  institutes: Pick<InstitutesService, 'forget'>
}) {
  const box = createSecretBox(config.jwtSecret, 'institute payment keys')

  function paymentKeysDto(rows: readonly PaymentKeyRow[]) {
    const row = (provider: PaymentKeyProvider) => rows.find((each) => each.provider === provider)
    const secret = (found: PaymentKeyRow): typeof KEEP | null => (found.secret_sealed === null ? null : KEEP)
    const khalti = row('khalti')
    const esewa = row('esewa')
    return {
      khalti: khalti ? { public_key: khalti.public_id, secret_key: secret(khalti) } : null,
      esewa: esewa ? { merchant_code: esewa.public_id, secret_key: secret(esewa) } : null,
    } as const
  }

  async function read(instituteId: number): Promise<InstituteSettings> {
    const row = await findInstituteSettings(database.db, instituteId)
    if (!row) throw new NotFound('Institute not found.')
    const logo = row.logo_hash ? await findLogo(database.db, row.logo_hash) : undefined
    return {
      name: { en: row.name_en, ne: row.name_ne },
      logo: logo ? { url: `/api/pictures/${logo.hash}.webp`, width: logo.width, height: logo.height } : null,
      colour: row.colour,
      sms_sender: row.sms_sender,
      open_registration: row.open_registration === 1,
      ...paymentKeysDto(await listPaymentKeys(database.db, instituteId)),
    }
  }

  /** The logo's picture stored (content-addressed, so before the change commits), or the field's refusal. */
  async function logoHash(logo: InstituteSettingsUpdate['logo']): Promise<string | null | undefined> {
    if (logo === undefined || logo === null) return logo
    const bytes = decodeDataUrl(logo.picture)
    const encoded = typeof bytes === 'string' ? bytes : await pictures.encode(bytes)
    if (typeof encoded === 'string') throw new ValidationFailed({ 'logo.picture': [refusals[encoded]] })
    const same = (await pictures.alreadyStored([encoded])).get(encoded.hash)
    if (same) return PICTURE_URL_PATTERN.exec(same.url)![1]!
    await pictures.saveEncoded([encoded])
    return encoded.hash
  }

  function instituteChanges(body: InstituteSettingsUpdate, logo: string | null | undefined) {
    const changes: Updateable<InstituteTable> = {}
    if (body.name) Object.assign(changes, { name_en: body.name.en, name_ne: body.name.ne })
    if (logo !== undefined) changes.logo_hash = logo
    if (body.colour !== undefined) changes.colour = body.colour
    if (body.sms_sender !== undefined) changes.sms_sender = body.sms_sender
    if (body.open_registration !== undefined) changes.open_registration = body.open_registration ? 1 : 0
    return changes
  }

  type KeyInput = { public_id?: string | null; secret?: string | null } | null | undefined
  const keyInputs = (body: InstituteSettingsUpdate): Record<PaymentKeyProvider, KeyInput> => ({
    khalti: body.khalti && { public_id: body.khalti.public_key, secret: body.khalti.secret_key },
    esewa: body.esewa && { public_id: body.esewa.merchant_code, secret: body.esewa.secret_key },
  })

  /** Each provider's row after the change: left out keeps it, null removes it, a field left out keeps that field. */
  function nextKey(instituteId: number, provider: PaymentKeyProvider, input: KeyInput, current?: PaymentKeyRow) {
    if (input === undefined) return { changed: false as const }
    if (input === null) return { changed: true as const, row: null }
    const publicId = input.public_id === undefined ? (current?.public_id ?? null) : input.public_id
    const secret =
      input.secret === undefined || input.secret === KEEP
        ? (current?.secret_sealed ?? null)
        : input.secret === null
          ? null
          : box.seal(input.secret, sealContext(instituteId, provider))
    const row = publicId === null && secret === null ? null : { public_id: publicId, secret_sealed: secret }
    return { changed: true as const, row }
  }

  // The sealed values themselves, so that a replaced secret shows as a change; the audit writes only "changed".
  const auditValues = (row: InstituteSettingsRow, keys: readonly PaymentKeyRow[]): AuditValues => {
    const key = (provider: PaymentKeyProvider) => {
      const found = keys.find((each) => each.provider === provider)
      return found ? { public_id: found.public_id, secret_key: found.secret_sealed } : null
    }
    return {
      name: { en: row.name_en, ne: row.name_ne },
      logo: row.logo_hash,
      colour: row.colour,
      sms_sender: row.sms_sender,
      open_registration: row.open_registration === 1,
      khalti: key('khalti'),
      esewa: key('esewa'),
    }
  }

  async function update(instituteId: number, body: InstituteSettingsUpdate, actor: AuditActor) {
    if (config.env === 'production' && !config.payments.sandbox) {
      const errors = testKeyErrors(body)
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
    }
    const logo = await logoHash(body.logo)
    const inputs = keyInputs(body)
    await database.transaction(async (trx) => {
      const before = await findInstituteSettings(trx, instituteId)
      if (!before) throw new NotFound('Institute not found.')
      const beforeKeys = await listPaymentKeys(trx, instituteId)
      const now = clock.now()
      await updateInstitute(trx, instituteId, instituteChanges(body, logo))
      for (const provider of PROVIDERS) {
        const current = beforeKeys.find((row) => row.provider === provider)
        const next = nextKey(instituteId, provider, inputs[provider], current)
        if (!next.changed) continue
        if (next.row) await savePaymentKey(trx, { institute_id: instituteId, provider, ...next.row }, now)
        else await deletePaymentKey(trx, instituteId, provider)
      }
      const after = (await findInstituteSettings(trx, instituteId))!
      const diff = changedFields(
        auditValues(before, beforeKeys),
        auditValues(after, await listPaymentKeys(trx, instituteId)),
      )
      if (Object.keys(diff.after).length > 0)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'institute',
          entityId: instituteId,
          label: after.name_en,
          ...diff,
        })
    })
    // This process answers with the change at once; the others re-read their host table within a second.
    institutes.forget()
    return read(instituteId)
  }

  /**
   * The keys of an institute's payments: its own, and for the first institute (`main`) the environment's where it
   * has none, so a deployment made before institutes keeps taking payments with no setting. A provider is offered
   * only where PAYMENT_PROVIDERS names it. A secret that no longer opens (JWT_SECRET changed) counts as none.
   */
  async function merchantKeys(instituteId: number): Promise<MerchantKeys & { unreadable: PaymentKeyProvider[] }> {
    const { payments } = config
    const rows = await listPaymentKeys(database.db, instituteId)
    const offered = (provider: PaymentProvider) => payments.providers.includes(provider)
    const keys: MerchantKeys & { unreadable: PaymentKeyProvider[] } = { unreadable: [] }
    const secretOf = (row: PaymentKeyRow | undefined) => {
      if (!row?.secret_sealed) return undefined
      const secret = box.open(row.secret_sealed, sealContext(instituteId, row.provider))
      if (secret === undefined) keys.unreadable.push(row.provider)
      return secret
    }
    const main = instituteId === FIRST_INSTITUTE_ID
    const khalti = rows.find((row) => row.provider === 'khalti')
    const khaltiSecret = secretOf(khalti)
    if (offered('khalti') && khaltiSecret) keys.khalti = { secretKey: khaltiSecret }
    else if (offered('khalti') && main && !khalti) keys.khalti = { secretKey: payments.khalti.secretKey }
    const esewa = rows.find((row) => row.provider === 'esewa')
    const esewaSecret = secretOf(esewa)
    if (offered('esewa') && esewaSecret && esewa?.public_id)
      keys.esewa = { productCode: esewa.public_id, secretKey: esewaSecret }
    else if (offered('esewa') && main && !esewa)
      keys.esewa = { productCode: payments.esewa.productCode, secretKey: payments.esewa.secretKey }
    return keys
  }

  return { read, update, merchantKeys }
}

export type InstituteSettingsService = ReturnType<typeof createInstituteSettingsService>
