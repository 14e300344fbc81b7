// Request and response schemas of the quizzes feature (API.md).
export {}
