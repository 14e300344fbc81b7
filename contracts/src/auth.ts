// Request and response schemas of the auth feature (API.md).
export {}
