// Placeholder: replaced by the feature's real page.
export function Component() {
  return <h1>results-page</h1>
}
