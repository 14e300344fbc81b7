// Request and response schemas of the results feature (API.md).
export {}
