/** A short, valid quiz: the format at a glance (docs/admin-quiz-json.md has the full reference). */
export const EXAMPLE_QUIZ_JSON = `{
  "title": { "en": "General Knowledge", "ne": "सामान्य ज्ञान" },
  "duration_minutes": 90,
  "allowed_attempts": 3,
  "difficulty": "medium",
  "is_paid_tier": false,
  "shuffle_questions": false,
  "shuffle_options": false,
  "end_time": "2030-12-31T18:00:00+05:45",
  "questions": [
    {
      "text": { "en": "What is the capital of Nepal?", "ne": "नेपालको राजधानी कुन हो?" },
      "hint": { "en": "It lies in a valley.", "ne": "यो एउटा उपत्यकामा छ।" },
      "topic": "Geography",
      "image": {
        "svg": "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 20'><rect width='40' height='20' fill='#dc143c'/></svg>",
        "caption": { "en": "A red box", "ne": "रातो बाकस" }
      },
      "options": [
        { "text": { "en": "Kathmandu", "ne": "काठमाडौं" }, "is_correct": true },
        { "text": { "en": "Pokhara", "ne": "पोखरा" }, "is_correct": false }
      ]
    }
  ]
}`
