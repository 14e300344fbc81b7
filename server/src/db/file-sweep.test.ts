import { describe, expect, it } from 'vitest'
import { createQuiz, createUser } from '../../test/factories'
import { dialects } from '../../test/dialects'
import { useTestApp } from '../../test/test-app'
import { GRACE_MS, sweepOrphanedFiles } from './file-sweep'

// docs/decisions/112: a file written to the store whose transaction never committed (a process killed between the
// two, a delete that failed) is removed by the sweep once older than its grace; every file a row names stays, in
// every institute, whatever row security shows the app's session.

describe.each(dialects)('the sweep of orphaned files on %s', (dialect) => {
  const t = useTestApp(dialect)
  const jpeg = (text: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from(text)])

  async function keys() {
    const found: string[] = []
    for (const folder of ['pictures/', 'pages/', 'profile-pictures/', 'scans/', 'other/'])
      for await (const page of t.files.list(folder)) found.push(...page.map((file) => file.key))
    return found.sort()
  }

  it('removes old files no row names and keeps named, young and unknown ones', async () => {
    const user = await createUser(t.database)
    // Named by rows of each kind.
    await t.files.put('pictures/aa', jpeg('p'), 'image/webp')
    await t.db
      .insertInto('pictures')
      .values({
        hash: 'aa',
        data: Buffer.alloc(0),
        data_key: 'pictures/aa',
        data_size: 4,
        width: 1,
        height: 1,
        pixels_hash: 'x',
        created_at: 0,
      })
      .execute()
    await t.files.put('pages/bb', jpeg('page'), 'image/jpeg')
    await t.files.put('pages/bb-phone', jpeg('phone'), 'image/webp')
    await t.db
      .insertInto('page_images')
      .values({
        hash: 'bb',
        data: Buffer.alloc(0),
        data_key: 'pages/bb',
        phone_key: 'pages/bb-phone',
        content_type: 'image/jpeg',
        width: 1,
        height: 1,
        created_at: 0,
      })
      .execute()
    await t.files.put('profile-pictures/cc', jpeg('me'), 'image/webp')
    await t.db
      .insertInto('profile_pictures')
      .values({
        id: 'cc',
        user_id: user.id,
        content_type: 'image/webp',
        data: Buffer.alloc(0),
        data_key: 'profile-pictures/cc',
        created_at: 0,
      })
      .execute()
    // A sheet's photo in a second institute: on PostgreSQL row security hides it from a session of the first.
    const second = await t.db
      .insertInto('institutes')
      .values({ slug: 'second', name_en: 'Second', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    const { quiz } = await createQuiz(t.database, { institute_id: second.id } as never, { questionCount: 0 })
    const sitting = await t.db
      .insertInto('sittings')
      .values({
        quiz_id: quiz.id,
        title_en: 'S',
        held_at: 0,
        revision_ids: '[]',
        sets: '[]',
        created_at: 0,
        institute_id: second.id,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.files.put('scans/dd-1', jpeg('sheet'), 'image/jpeg')
    await t.db
      .insertInto('sitting_scans')
      .values({
        sitting_id: sitting.id,
        sheet: 'R1',
        status: 'needs_review',
        answers: '{}',
        flags: '[]',
        photo: Buffer.alloc(0),
        photo_key: 'scans/dd-1',
        photo_type: 'image/jpeg',
        created_at: 0,
        updated_at: 0,
        institute_id: second.id,
      } as never)
      .execute()
    // Orphans: files whose upload's transaction never committed, one of each folder.
    for (const key of [
      'pictures/orphan',
      'pages/orphan',
      'pages/orphan-phone',
      'profile-pictures/orphan',
      'scans/orphan-2',
    ])
      await t.files.put(key, jpeg(key), 'image/jpeg')
    // A folder the sweep knows nothing of is not its to empty.
    await t.files.put('other/thing', jpeg('other'), 'image/jpeg')
    const named = ['pages/bb', 'pages/bb-phone', 'pictures/aa', 'profile-pictures/cc', 'scans/dd-1']

    // Young: an upload whose transaction may not have committed yet keeps its file.
    expect(await sweepOrphanedFiles(t.appDatabase, t.files, Date.now())).toBe(0)
    expect(await keys()).toHaveLength(11)

    expect(await sweepOrphanedFiles(t.appDatabase, t.files, Date.now() + GRACE_MS + 5_000)).toBe(5)
    expect(await keys()).toEqual([...named, 'other/thing'].sort())
    for (const key of named) expect(await t.files.exists(key)).toBe(true)
    // Nothing more the second time.
    expect(await sweepOrphanedFiles(t.appDatabase, t.files, Date.now() + GRACE_MS + 5_000)).toBe(0)
  })
})
