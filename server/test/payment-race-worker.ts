// Child process of payment-races.test.ts: one app on a shared SQLite file, sending a burst of fake-provider
// returns and status reads for one payment while another process does the same. Prints one JSON line per response.
import { raceWhenReleased, startRaceApp, type RaceAppInput } from './race-workers'

export interface PaymentRaceInput extends RaceAppInput {
  paymentId: number
  ref: string
  operations: number
}

const input = JSON.parse(process.argv[2]!) as PaymentRaceInput
const race = await startRaceApp(input, { PAYMENT_PROVIDERS: 'fake' })
const { app, headers } = race

async function operation(i: number) {
  const response =
    i % 2 === 0
      ? await app.inject({ method: 'GET', url: `/api/payments/fake/return/?ref=${input.ref}` })
      : await app.inject({ method: 'GET', url: `/api/payments/${input.paymentId}/`, headers })
  return { status: response.statusCode, location: response.headers.location ?? null }
}

await raceWhenReleased(race, input.operations, operation)
