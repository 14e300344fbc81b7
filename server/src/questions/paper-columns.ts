// Decoded in one place: attempts' `attemptColumns` and the paper cache (which keys on the text itself) read them here.
export const paperColumns = {
  revisionIds: (json: string): number[] => JSON.parse(json) as number[],
  optionOrder: (json: string | null | undefined): number[][] | null => (json ? (JSON.parse(json) as number[][]) : null),
}
