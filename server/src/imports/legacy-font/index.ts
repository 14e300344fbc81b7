// The legacy Nepali font converter (docs/legacy-fonts.md, docs/decisions/033).
export { convertLegacy, legacyToUnicode, malformedSigns, type CheckedConversion, type LegacyFont } from './convert'
export { readsAsLegacy } from './detect'
export { legacyFontOfName, unsupportedLegacyFontOfName } from './font-names'
