import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74, bench:institutes (docs/decisions/121). PostgreSQL only; SQLite has no row security and needs neither.
//
// The background jobs (owed practice cards, deliveries, live announcements, live mock ends, the daily set) looked
// at every institute in turn, a transaction or two and a round trip to set the session each: at 1,000 institutes
// they never rested, and took more of the server's and the database's CPU than the requests. Each now asks first
// which institutes have work of its kind, in one statement: `institutes_with_work(job, now, grace, today)`, run
// with its owner's rights (it returns institutes' ids, nothing of their rows). What it asks is a superset of each
// job's own due rows (the job's pass then reads exactly those, as before).
export const institutesWithWork = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    // The institutes of the rows in sight with work of the kind due: under row security, those of the session's.
    await sql`
      create function institutes_with_work_in_sight(job text, now_ms bigint, grace_ms bigint, today text)
        returns setof integer
        language sql stable
        set search_path = pg_catalog, public
      as $$
        select distinct institute_id from owed_practice_cards where job = 'owed_cards'
        union
        select distinct institute_id from deliveries
          where job = 'deliveries' and status = 'pending' and next_attempt_at <= now_ms
        union
        select distinct institute_id from live_announcements
          where job = 'announcements' and status = 'pending' and due_at <= now_ms
        union
        select distinct q.institute_id from quizzes q left join leaderboard_snapshots s on s.quiz_id = q.id
          where job = 'mock_ends' and q.deleted_at is null and q.status = 'published'
            and q.live_starts_at is not null and q.live_join_minutes is not null
            and q.live_starts_at + q.duration_minutes * 60000::bigint + grace_ms < now_ms
            and (s.quiz_id is null or s.starts_at <> q.live_starts_at or s.due_at <= now_ms)
        union
        select institute_id from daily_settings where job = 'daily' and enabled = 1
        union
        select institute_id from daily_days where job = 'daily' and day = today and published_at is not null
      $$`.execute(db)
    // As its owner, who migrates every institute's rows and so is above row security (docs/operations.md "Database
    // roles"): one read of the rows of every institute. An owner held by row security (the server warns) sees none at
    // once, so the session is set to each institute in turn, as the app role's own would be, and put back.
    await sql`
      create function institutes_with_work(job text, now_ms bigint, grace_ms bigint, today text)
        returns setof integer
        language plpgsql volatile security definer
        set search_path = pg_catalog, public
      as $$
      declare
        was text := current_setting('app.institute_id', true);
        institute integer;
      begin
        if not row_security_active('owed_practice_cards') then
          return query select w from institutes_with_work_in_sight(job, now_ms, grace_ms, today) as w order by w;
          return;
        end if;
        for institute in select id from institutes order by id loop
          perform set_config('app.institute_id', institute::text, true);
          return query select w from institutes_with_work_in_sight(job, now_ms, grace_ms, today) as w;
        end loop;
        perform set_config('app.institute_id', coalesce(was, ''), true);
      end
      $$`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    await sql`drop function institutes_with_work(text, bigint, bigint, text)`.execute(db)
    await sql`drop function institutes_with_work_in_sight(text, bigint, bigint, text)`.execute(db)
  },
})
