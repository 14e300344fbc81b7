// The package ships index.d.ts but its "exports" map names no types, so bundler resolution cannot find them
// (as in web/src/types; docs/decisions/013).
declare module '@remotemerge/nepali-date-converter' {
  export default class DateConverter {
    constructor(dateInput: string)
    toAd(): { year: number; month: number; date: number; day: string }
    toBs(): { year: number; month: number; date: number; day: string }
  }
}
