// Request and response schemas of the admin feature (API.md).
export {}
