// A shortest-form number shown in Nepali digits on the Nepali screens (it is stored and marked with Latin ones).
const NEPALI_ZERO = 0x0966

export const toNepaliDigits = (text: string) =>
  text.replace(/[0-9]/gu, (digit) => String.fromCharCode(NEPALI_ZERO + Number(digit)))
