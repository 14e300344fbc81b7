// A pasted list of phone numbers, read as the admin meant it before anything is sent ("Add by phone numbers").
import { phoneInListing } from '@quiz/contracts/rules/identity'
import { fromDevanagariDigits } from '../../../lib/digits'

/** A number of the list and the line it was on (1-based), so that a refusal can point at that line. */
export interface ListedPhone {
  phone: string
  line: number
}

/** A piece of the list that is not a phone number, as it was typed. */
export interface Malformed {
  line: number
  text: string
}

export interface PhoneList {
  /** Each number once, in the order first pasted. */
  phones: ListedPhone[]
  malformed: Malformed[]
}

/**
 * One number a line, or several separated by commas, semicolons or spaces; Devanagari digits are read as Latin.
 * A piece is first read whole, so "+977 984-1000001" (spaces inside one number, as spreadsheets write it) is one
 * number; only a piece that is not one is split at its spaces.
 */
export function readPhoneList(text: string): PhoneList {
  const phones: ListedPhone[] = []
  const malformed: Malformed[] = []
  const seen = new Set<string>()
  const take = (phone: string, line: number) => {
    if (seen.has(phone)) return
    seen.add(phone)
    phones.push({ phone, line })
  }
  text.split(/\r\n|\r|\n/).forEach((content, index) => {
    const line = index + 1
    for (const piece of content.split(/[,;]/)) {
      const trimmed = piece.trim()
      if (!trimmed) continue
      const whole = phoneInListing(fromDevanagariDigits(trimmed))
      if (whole) {
        take(whole, line)
        continue
      }
      for (const token of trimmed.split(/\s+/)) {
        const phone = phoneInListing(fromDevanagariDigits(token))
        if (phone) take(phone, line)
        else malformed.push({ line, text: token })
      }
    }
  })
  return { phones, malformed }
}
