// Bench (j): the admin's reads at scale (issue 10: under 100 ms server time with 1,000,000 page-view rows
// and 10,000 users, on PostgreSQL and on PGlite). Seeds bench/admin-reads-seed.mjs into a fresh in-memory
// PGlite database and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a PostgreSQL server, into a new
// database there; then times what each admin page asks the database for, with the app's own functions.
//
//   node --import tsx bench/admin-reads.mjs [--json]
import { sql } from 'drizzle-orm';
import { READS_BENCH, seedAdminReads } from './admin-reads-seed.mjs';
import { onEngines } from './on-engines.mjs';

export const READS_TARGET_MS = 100;
/** The pipeline board reads five columns (issue 39: first paint under 300 ms p95 at 20,000 people). */
export const BOARD_TARGET_MS = 300;
export const isBoardRead = (name) => name.startsWith('/admin/leads/board');
const ROUNDS = 15;
const HEAVY_MEMBER = 'bench-user-2';
const HEAVY_EMAIL = 'member2@bench.example';

/** The reads of each admin page, made as the page makes them (in parallel where the page does). */
async function pageReads() {
  const { analyticsReport } = await import('../src/server/modules/analytics/report.ts');
  const { latestActivity } = await import('../src/server/modules/activity/service.ts');
  const { leadOverview } = await import('../src/server/modules/leads/service.ts');
  const { leadFunnel } = await import('../src/server/modules/leads/funnel.ts');
  const { followUpsDue } = await import('../src/server/modules/leads/work.ts');
  const { mailComposerOf } = await import('../src/server/modules/leads/mail.ts');
  const { overview } = await import('../src/server/modules/overview/service.ts');
  const { leadPeriodRange } = await import('../src/shared/lead-events.ts');
  const users = await import('../src/server/modules/users/admin.ts');
  const report = await import('../src/server/modules/page-time/report.ts');
  const people = await import('../src/server/modules/leads/people.ts');
  const { parseUserListQuery } = await import('../src/shared/admin-users.ts');
  const { peopleQueryOf } = await import('../src/shared/lead-people.ts');
  const overviewPage = (days) => () => {
    const now = new Date();
    const range = leadPeriodRange(days, now);
    return Promise.all([overview(), latestActivity(10), leadOverview(days, now), analyticsReport(range), leadFunnel(range), followUpsDue()]);
  };
  const { db } = await import('../src/server/db/index.ts');
  // The cursor of the heavy member's 50,000th record (newest first), found once before timing: the timeline
  // pages by keyset, so reading 2,000 pages deep is one index range from there, like the first page.
  const deep = await db().execute(
    sql`select floor(extract(epoch from at) * 1000)::bigint as ms, id from page_times where user_id = ${HEAVY_MEMBER} order by at desc, id desc offset 49999 limit 1`,
  );
  const deepCursor = report.parsePageTimeCursor(`${deep.rows[0].ms}.${deep.rows[0].id}`);
  if (!deepCursor) throw new Error('no 50,000th page-time record to start from');
  const userPage = (position) => () =>
    Promise.all([users.userDetail(HEAVY_MEMBER), report.pageTimeTimeline(HEAVY_MEMBER, position), report.pageTimeTotals(HEAVY_MEMBER)]);
  const { siteToday } = await import('../src/server/modules/leads/work.ts');
  // As the admin (bench-user-1) sees the list: "me" is them, "due" is today in the site's zone.
  const leadsList = (qs) => async () =>
    Promise.all([people.listPeople(peopleQueryOf(new URLSearchParams(qs)), { actorId: 'bench-user-1', today: await siteToday() }), people.anonymousBookCalls()]);
  return {
    '/admin (overview), 7 days': overviewPage(7),
    '/admin (overview), 90 days': overviewPage(90),
    '/admin/users': () => users.userListPage(parseUserListQuery(new URLSearchParams())),
    '/admin/users?q=member 1&sort=name&page=3': () => users.userListPage(parseUserListQuery(new URLSearchParams('q=member+1&sort=name&page=3'))),
    '/admin/users?verified=unverified&sort=oldest': () => users.userListPage(parseUserListQuery(new URLSearchParams('verified=unverified&sort=oldest&page=2'))),
    '/admin/users/{id}, 100,000 page-time rows': userPage({}),
    '  … its timeline, older than record 50,000': userPage({ before: deepCursor }),
    '  … its timeline, newer than record 50,000': userPage({ after: deepCursor }),
    '/admin/leads': leadsList(''),
    '/admin/leads?q=lead12': leadsList('q=lead12'),
    '/admin/leads?stage=contacted': leadsList('stage=contacted'),
    '/admin/leads?owner=me': leadsList('owner=me'),
    '/admin/leads?due=1&sort=follow-up': leadsList('due=1&sort=follow-up'),
    '/admin/leads/board': async () => people.boardColumns(peopleQueryOf(new URLSearchParams('')), { actorId: 'bench-user-1', today: await siteToday() }),
    '/admin/leads/board?owner=me': async () => people.boardColumns(peopleQueryOf(new URLSearchParams('owner=me')), { actorId: 'bench-user-1', today: await siteToday() }),
    '/admin/leads/board?q=lead12': async () => people.boardColumns(peopleQueryOf(new URLSearchParams('q=lead12')), { actorId: 'bench-user-1', today: await siteToday() }),
    '/admin/leads/{person}, the same member': () =>
      Promise.all([people.findPerson(HEAVY_EMAIL), people.personTimeline(HEAVY_EMAIL), people.nextCallOf(HEAVY_EMAIL), mailComposerOf(HEAVY_EMAIL, { name: 'Bench Admin', email: 'admin@bench.example' })]),
  };
}

/**
 * p50/p95 of wall time and of this process's CPU time per page. On PGlite the database runs on this
 * thread, so the CPU time is the server time the page costs whatever else holds the machine's cores; on
 * PostgreSQL the work is in the server's processes and the wall time is the measure.
 */
async function timeAll(reads) {
  const out = {};
  for (const [name, run] of Object.entries(reads)) {
    for (let i = 0; i < 3; i++) await run(); // warm-up (JIT, plan cache)
    const wall = [];
    const cpu = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await run();
      const used = process.cpuUsage(cpuBefore);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    out[name] = { p50: pct(wall, 0.5), p95: pct(wall, 0.95), cpuP50: pct(cpu, 0.5), cpuP95: pct(cpu, 0.95) };
  }
  return out;
}

function pct(list, q) {
  const sorted = [...list].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
}

async function onEngine(target) {
  const { openDatabase } = await import('../src/server/db/client.ts');
  const { useDatabaseHandle } = await import('../src/server/db/index.ts');
  const handle = await openDatabase(target);
  try {
    await handle.migrate();
    useDatabaseHandle(handle);
    const started = performance.now();
    await seedAdminReads(handle.db);
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    return { seedSeconds, reads: await timeAll(await pageReads()) };
  } finally {
    await handle.close();
  }
}

export async function measureAdminReads() {
  return { data: READS_BENCH, ...(await onEngines('reads', onEngine)) };
}

/** The server time of a page: CPU time on PGlite (in this process), wall time on PostgreSQL. */
export const serverP95 = (engine, t) => (engine === 'pglite' ? t.cpuP95 : t.p95);

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureAdminReads();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  else {
    for (const engine of ['pglite', 'postgres']) {
      if (!r[engine]) continue;
      console.log(`${engine} (seeded in ${r[engine].seedSeconds} s):`);
      for (const [name, t] of Object.entries(r[engine].reads))
        console.log(`  ${name.padEnd(46)} wall p50 ${t.p50} ms, p95 ${t.p95} ms; CPU here p50 ${t.cpuP50} ms, p95 ${t.cpuP95} ms`);
    }
  }
}
