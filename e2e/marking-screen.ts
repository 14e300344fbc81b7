import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import enMarking from '../web/src/i18n/locales/en/marking.json'
import neMarking from '../web/src/i18n/locales/ne/marking.json'
import { imageRendered, type TestServer } from './fixtures'

// The marking screen (issue 57) as the journeys that mark written answers drive it: by keyboard, as a marker does.

/** Makes the learner `username` a marker, through the admin API (setup). */
export async function makeMarker(server: TestServer, adminToken: string, username: string) {
  const users = await server.api<{ results: { id: number; username: string }[] }>(
    'GET',
    `/api/admin/users/?search=${username}`,
    undefined,
    adminToken,
  )
  const user = users.body.results.find((entry) => entry.username === username)!
  const patched = await server.api('PATCH', `/api/admin/users/${user.id}/`, { is_marker: true }, adminToken)
  expect(patched.status).toBe(200)
}

/**
 * The rubric the journeys mark by, on written question `questionId` of 10 marks: keys 1, 2 and 3 apply its first
 * three items (3, 4 and 2 points), so 1 then 2 gives "Total 7 of 10".
 */
export async function putRubric(server: TestServer, adminToken: string, questionId: number) {
  const rubric = await server.api(
    'PUT',
    `/api/admin/bank/questions/${questionId}/rubric/`,
    {
      scoring: 'positive',
      groups: [],
      items: [
        { points: 3, title: { en: 'Names the constitutional basis', ne: 'संवैधानिक आधार उल्लेख' } },
        { points: 4, title: { en: 'Explains recruitment and promotion', ne: 'भर्ना र बढुवा व्याख्या' } },
        { points: 2, title: { en: 'Gives an example', ne: 'उदाहरण दिएको' } },
        { points: -1, title: { en: 'Over the word limit', ne: 'शब्द सीमा नाघेको' } },
      ],
      revision: 0,
    },
    adminToken,
  )
  expect(rubric.status).toBe(200)
}

/** The answer's code in the heading, once its first page has loaded. */
export async function openAnswer(page: Page) {
  const { answer } = enMarking.screen
  const heading = page.getByRole('heading', { level: 1, name: new RegExp(`^(${answer}|${neMarking.screen.answer}) `) })
  await heading.waitFor()
  await page.locator('.page-marker img').first().waitFor()
  await expect.poll(() => imageRendered(page.locator('.page-marker img').first())).toBe(true)
  return (await heading.textContent())!.replace(/^\S+ /, '').trim()
}

/** A short underline under the middle of the page, drawn with the pen (P) and the mouse. */
export async function penStroke(page: Page) {
  await page.keyboard.press('p')
  const box = (await page.locator('.page-marker svg').boundingBox())!
  const y = box.y + Math.min(box.height, 700) * 0.5
  await page.mouse.move(box.x + box.width * 0.2, y)
  await page.mouse.down()
  for (let step = 1; step <= 8; step++)
    await page.mouse.move(box.x + box.width * (0.2 + step * 0.05), y + step, { steps: 2 })
  await page.mouse.up()
  await page.keyboard.press('Escape')
}

/** Saves the open answer (Enter) and waits for it to leave the screen. */
export async function saveAnswer(page: Page, code: string) {
  await page.keyboard.press('Enter')
  await page
    .getByRole('heading', { level: 1, name: `${enMarking.screen.answer} ${code}` })
    .waitFor({ state: 'detached' })
}
