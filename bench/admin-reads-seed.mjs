// The data of bench (j): 10,000 users, 1,000,000 member page-time rows (one member holds 100,000 of them),
// a year of first-party analytics as ingest stores it (about 1,000,000 page views over 300 paths, i.e.
// 109,500 per-day page rows, plus 73,000 source rows, devices and days) and 200,000 lead events of 20,000
// people, each person with a stage, a third owned by the admin and a seventh with a follow-up day within a
// week either side of today (issue 23). Generated in SQL (generate_series), so seeding takes seconds on
// PGlite and PostgreSQL alike.
import { sql } from 'drizzle-orm';

export const READS_BENCH = { users: 10_000, pageTimes: 1_000_000, heavyMemberRows: 100_000, analyticsDays: 365, pathsPerDay: 300, leadEvents: 200_000, leadPeople: 20_000 };

export async function seedAdminReads(db) {
  const B = READS_BENCH;
  const day0 = `current_date - ${B.analyticsDays - 1}`;
  const steps = [
    sql.raw(`insert into users (id, name, email, email_verified, first_name, last_name, role, signup_source, created_at, updated_at)
      select 'bench-user-' || g, 'Member ' || g, 'member' || g || '@bench.example', g % 5 <> 0, 'Member', 'Number ' || g,
             case when g = 1 then 'admin' else 'user' end, case when g % 3 = 0 then '/packages' else null end,
             now() - (g || ' minutes')::interval, now()
      from generate_series(1, ${B.users}) g`),
    // The heavy member (bench-user-2) first, then the rest spread over all users.
    sql.raw(`insert into page_times (id, user_id, page_path, duration_ms, at, session_id)
      select 'bench-pt-h-' || g, 'bench-user-2', '/article/article-' || (g % 400), 1001 + (g::bigint * 7919) % 120000,
             now() - (g || ' seconds')::interval * 30, 'tab' || (g / 50)
      from generate_series(1, ${B.heavyMemberRows}) g`),
    sql.raw(`insert into page_times (id, user_id, page_path, duration_ms, at, session_id)
      select 'bench-pt-' || g, 'bench-user-' || (3 + g % ${B.users - 2}), '/service/service-' || (g % 50), 1001 + (g::bigint * 104729) % 300000,
             now() - (g || ' seconds')::interval * 20, 'tab' || (g / 40)
      from generate_series(1, ${B.pageTimes - B.heavyMemberRows}) g`),
    sql.raw(`insert into analytics_pages (day, path, views)
      select ${day0} + d, '/article/article-' || p, 1 + (d * 31 + p) % 17
      from generate_series(0, ${B.analyticsDays - 1}) d, generate_series(1, ${B.pathsPerDay}) p`),
    sql.raw(`insert into analytics_days (day, views, visits, visitors)
      select day, sum(views), sum(views) / 3, sum(views) / 5 from analytics_pages group by day`),
    sql.raw(`insert into analytics_sources (day, referrer_host, utm_source, utm_medium, utm_campaign, visits)
      select ${day0} + d, case when s = 1 then '' else 'site' || s || '.example' end,
             case when s % 3 = 0 then 'newsletter' || (s % 7) else '' end, case when s % 3 = 0 then 'email' else '' end,
             case when s % 3 = 0 then 'campaign-' || (s % 11) else '' end, 1 + (d + s) % 25
      from generate_series(0, ${B.analyticsDays - 1}) d, generate_series(1, 200) s`),
    sql.raw(`insert into analytics_devices (day, device, views)
      select a.day, dev, a.views / 3 from analytics_days a, unnest(array['mobile','tablet','desktop']) dev`),
    sql.raw(`insert into lead_events (id, at, kind, email, name, user_id, source_page, referrer, utm_source, utm_medium, utm_campaign)
      select 'bench-le-' || g, now() - (g || ' seconds')::interval * 156,
             (array['audit-request','chat-lead','sign-up','book-call'])[1 + g % 4],
             case when g % 4 = 3 and g % 8 <> 3 then '' else 'lead' || (g % ${B.leadPeople}) || '@bench.example' end,
             'Lead ' || (g % ${B.leadPeople}), null, '/', case when g % 2 = 0 then 'https://site' || (g % 30) || '.example/' else '' end,
             case when g % 5 = 0 then 'newsletter' else '' end, case when g % 5 = 0 then 'email' else '' end, case when g % 5 = 0 then 'spring' else '' end
      from generate_series(1, ${B.leadEvents}) g`),
    // The heavy member is a lead too (their sign-up), so their person page has 100,000 page-time rows.
    sql.raw(`insert into lead_events (id, at, kind, email, name, user_id, ref_id) values ('bench-le-heavy', now() - interval '300 days', 'sign-up', 'member2@bench.example', 'Member 2', 'bench-user-2', 'bench-user-2')`),
    sql.raw(`insert into lead_people (email, stage, owner_id, follow_up_on)
      select 'lead' || p || '@bench.example', (array['new','contacted','call-booked','client','not-a-fit'])[1 + p % 5],
             case when p % 3 = 0 then 'bench-user-1' else null end, case when p % 7 = 0 then current_date + (p % 15 - 7) else null end
      from generate_series(0, ${B.leadPeople - 1}) p`),
    sql.raw('analyze'),
  ];
  for (const step of steps) await db.execute(step);
}
