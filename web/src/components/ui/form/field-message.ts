import { createContext, useContext } from 'react'

/**
 * How a form's message is shown: form state holds the contracts' English texts (the form's own checks and the
 * server's `errors` alike), and the form's feature maps the ones it knows to its language. Unknown texts show as sent.
 */
export const FieldMessages = createContext<(text: string) => string>((text) => text)

/** The message of a field's error in the reader's language, or null. */
export function useFieldMessage() {
  const show = useContext(FieldMessages)
  return (error: { message?: string } | undefined) => (error?.message ? show(error.message) : null)
}
