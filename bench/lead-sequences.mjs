// Bench (t): a follow-up sequence run over 10,000 enrolled people (issue 23: "sends each due step once").
// A fresh in-memory PGlite database, and a new PostgreSQL database when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) names a server: 10,000 people request an audit (their lead events), each enrolled by
// the app's own enrollInSequence; then two workers (on PostgreSQL two connection pools, as two server
// processes) drain the queue at step 1's time and again at step 2's. Counted afterwards from the tables:
// every person got each due step exactly once, and how long each run took.
//
//   node --import tsx bench/lead-sequences.mjs [--json]
import { and, eq, sql } from 'drizzle-orm';
import { onEngines } from './on-engines.mjs';

export const SEQUENCE_BENCH = { people: 10_000, batch: 500 };
const DAY = 86_400_000;

async function onEngine(target) {
  const { openDatabase } = await import('../src/server/db/client.ts');
  const { useDatabaseHandle } = await import('../src/server/db/index.ts');
  const schema = await import('../src/server/db/schema.ts');
  const { runDueJobsOf } = await import('../src/server/jobs/queue.ts');
  const { enrollInSequence, outsideQuietHours, SEQUENCE_STEP_JOB, timingNow } = await import('../src/server/modules/lead-sequences/schedule.ts');
  const { runSequenceStep, SEQUENCE_MAIL_KIND } = await import('../src/server/modules/lead-sequences/service.ts');
  const { DEFAULT_QUIET_HOURS } = await import('../src/shared/schemas/lead-sequences.ts');

  const handle = await openDatabase(target);
  const other = target.kind === 'postgres' ? await openDatabase(target) : undefined;
  try {
    await handle.migrate();
    useDatabaseHandle(handle);
    const db = handle.db;
    const steps = [
      { delayDays: 0, subject: 'Thanks, {{first_name}}', body: 'Hi {{first_name}}, about {{business}}.' },
      { delayDays: 2, subject: 'Day two', body: 'Book: {{booking_link}}' },
    ];
    await db.update(schema.leadSequences).set({ active: true, steps }).where(eq(schema.leadSequences.trigger, 'audit-requested'));

    const seedStarted = performance.now();
    const timing = await timingNow(new Date('2026-06-01T10:00:00Z'));
    for (let from = 0; from < SEQUENCE_BENCH.people; from += SEQUENCE_BENCH.batch) {
      const people = Array.from({ length: Math.min(SEQUENCE_BENCH.batch, SEQUENCE_BENCH.people - from) }, (_, i) => ({ email: `person${from + i}@bench.example`, name: `Person ${from + i}` }));
      await db.transaction(async (tx) => {
        await tx.insert(schema.leadEvents).values(people.map((p) => ({ id: crypto.randomUUID(), kind: 'audit-request', email: p.email, name: p.name, at: timing.now })));
        for (const p of people) await enrollInSequence(tx, 'audit-requested', { ...p, refId: null, consentedAt: timing.now }, timing);
      });
    }
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;

    // The queue's kind, run on the bench's clock (as the worker runs it on the real one).
    const kind = { maxAttempts: 10, retryDelayMs: () => 1000, leaseMs: 300_000, run: async (p, _job, now) => void (await runSequenceStep(p.enrollmentId, p.step, { now })) };
    const drain = async (database, at) => {
      let n = 0;
      for (let done; (done = await runDueJobsOf(SEQUENCE_STEP_JOB, kind, { database, now: () => at, batch: 50 })) > 0; ) n += done;
      return n;
    };
    const run = async (days) => {
      const at = new Date(outsideQuietHours(new Date(timing.now.getTime() + days * DAY + 60_000), DEFAULT_QUIET_HOURS, 'UTC').getTime() + 60_000);
      const started = performance.now();
      const ran = await Promise.all([drain(db, at), drain(other?.db ?? db, at)]);
      return { seconds: Math.round((performance.now() - started) / 100) / 10, jobs: ran[0] + ran[1], byWorker: ran };
    };
    const step1 = await run(0);
    const step2 = await run(2);

    const count = async (where) => Number((await db.select({ n: sql`count(*)` }).from(schema.mailQueue).where(where))[0].n);
    const mails = await count(eq(schema.mailQueue.kind, SEQUENCE_MAIL_KIND));
    const [{ dupes }] = await db
      .select({ dupes: sql`count(*) - count(distinct (${schema.mailQueue.to}, ${schema.mailQueue.subject}))` })
      .from(schema.mailQueue)
      .where(eq(schema.mailQueue.kind, SEQUENCE_MAIL_KIND));
    const sends = Number((await db.select({ n: sql`count(*)` }).from(schema.leadSequenceSends))[0].n);
    const completed = Number((await db.select({ n: sql`count(*)` }).from(schema.leadSequenceEnrollments).where(and(eq(schema.leadSequenceEnrollments.status, 'completed'))))[0].n);
    return { seedSeconds, step1, step2, mails, duplicates: Number(dupes), sends, completed, expected: SEQUENCE_BENCH.people * steps.length };
  } finally {
    await other?.close();
    await handle.close();
  }
}

export async function measureLeadSequences() {
  return { data: SEQUENCE_BENCH, ...(await onEngines('sequences', onEngine)) };
}

/** Each due step once to each person: every mail there, none twice. */
export const sequenceRunOk = (r) => r.mails === r.expected && r.duplicates === 0 && r.sends === r.expected && r.completed === SEQUENCE_BENCH.people;

export function sequenceRows(result, mark) {
  if (!result) return [['(t) follow-up sequence run, 10,000 enrolled', 'n/a', 'each due step sent once', mark(false)]];
  return ['pglite', 'postgres']
    .filter((engine) => result[engine])
    .map((engine) => {
      const r = result[engine];
      return [
        `(t) follow-up sequence run, ${SEQUENCE_BENCH.people.toLocaleString('en')} enrolled, two workers, ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
        `${r.mails} mails for ${r.expected} due steps, ${r.duplicates} twice; step 1 in ${r.step1.seconds} s (${Math.round(r.step1.jobs / r.step1.seconds)}/s, workers ${r.step1.byWorker.join(' + ')}), step 2 in ${r.step2.seconds} s`,
        'each due step sent once',
        mark(sequenceRunOk(r)),
      ];
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureLeadSequences();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  else for (const row of sequenceRows(r, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(row.join(' | '));
}
