// Request and response schemas of the users feature (API.md).
export {}
