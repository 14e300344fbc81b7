import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74, bench:institutes (docs/decisions/121). PostgreSQL only; SQLite has no row security and needs neither.
//
// 1. The background jobs (owed practice cards, deliveries, live announcements, live mock ends, the daily set) looked
//    at every institute in turn, a transaction or two and a round trip to set the session each: at 1,000 institutes
//    they never rested, and took more of the server's and the database's CPU than the requests. Each now asks first
//    which institutes have work of its kind, in one statement: `institutes_with_work(job, now, grace, today)` sets the
//    session to each institute in turn inside the database (a local setting, put back before it returns) and asks
//    row security's question there, so it needs no owner's rights and sees only what the app role may see. What it
//    asks is a superset of each job's own due rows (the job's pass then reads exactly those, as before).
// 2. Attempts' quiz decides their institute. Without saying so PostgreSQL guessed that a learner's attempts at one
//    quiz were as likely found through attempts_institute_quiz (every learner's, 200 a quiz here) as through
//    attempts_institute_user, and the learner's list of quizzes read 20 times the rows it needed at 1,000 institutes.
export const institutesWithWork = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    await sql`create statistics attempts_quiz_institute (dependencies, ndistinct) on institute_id, quiz_id
      from attempts`.execute(db)
    await sql`analyze attempts`.execute(db)
    await sql`
      create function institutes_with_work(job text, now_ms bigint, grace_ms bigint, today text)
        returns setof integer
        language plpgsql volatile
        set search_path = public
      as $$
      declare
        was text := current_setting('app.institute_id', true);
        institute integer;
        due boolean;
      begin
        for institute in select id from institutes order by id loop
          perform set_config('app.institute_id', institute::text, true);
          due := case job
            when 'owed_cards' then exists (select 1 from owed_practice_cards)
            when 'deliveries' then exists (
              select 1 from deliveries where status = 'pending' and next_attempt_at <= now_ms)
            when 'announcements' then exists (
              select 1 from live_announcements where status = 'pending' and due_at <= now_ms)
            when 'mock_ends' then exists (
              select 1 from quizzes q left join leaderboard_snapshots s on s.quiz_id = q.id
              where q.deleted_at is null and q.status = 'published' and q.live_starts_at is not null
                and q.live_join_minutes is not null
                and q.live_starts_at + q.duration_minutes * 60000::bigint + grace_ms < now_ms
                and (s.quiz_id is null or s.starts_at <> q.live_starts_at or s.due_at <= now_ms))
            when 'daily' then exists (select 1 from daily_settings where enabled = 1)
              or exists (select 1 from daily_days where day = today and published_at is not null)
            else false
          end;
          if due then
            return next institute;
          end if;
        end loop;
        perform set_config('app.institute_id', coalesce(was, ''), true);
        return;
      end
      $$`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    await sql`drop function institutes_with_work(text, bigint, bigint, text)`.execute(db)
    await sql`drop statistics attempts_quiz_institute`.execute(db)
  },
})
