// The legacy Nepali font converter (docs/legacy-fonts.md, docs/decisions/033).
export {
  convertLegacy,
  legacyToUnicode,
  malformedSigns,
  type CheckedConversion,
  type ConvertOptions,
  type LegacyFont,
} from './convert'
export {
  decideQuestion,
  holdsCode,
  holdsTex,
  isPlainNumber,
  legacyEvidence,
  mayBeLegacy,
  readsAsEnglish,
  readsAsLegacy,
  type LegacyEvidence,
  type QuestionDecision,
} from './detect'
export { legacyFontOfName, unsupportedLegacyFontOfName } from './font-names'
