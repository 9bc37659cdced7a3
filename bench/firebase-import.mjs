// Bench (l): the Firebase import at scale (issue 11). Seeds the offline emulators with a project of 1,000
// members and about 40 page views each (tests/support/firebase-project.ts), then times the importer's
// three steps with its own functions: reading the project (firebase-admin against the emulators, which run
// in this process and share its CPU), planning against the database, and writing (--apply) into a fresh
// in-memory PGlite and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a PostgreSQL server, a new
// database there.
//
//   node --import tsx bench/firebase-import.mjs [--json]
import fs from 'node:fs';
import os from 'node:os';

export const IMPORT_TARGET = { recordsPerSecond: 2000, totalSeconds: 60 };
const MEMBERS = 1000;
const PAGE_VIEWS_EACH = 40;

const elapsed = (since) => Math.round(performance.now() - since);

/** Plan and write one project into one fresh database; the write is what --apply does. */
async function importInto(target, project, key) {
  const { openDatabase } = await import('../src/server/db/client.ts');
  const { useDatabaseHandle } = await import('../src/server/db/index.ts');
  const { planFirebaseImport } = await import('../src/server/modules/firebase-import/plan-import.ts');
  const { writeFirebaseImport } = await import('../src/server/modules/firebase-import/write-import.ts');
  const { firebaseHashConfigSchema } = await import('../src/server/auth/firebase-password.ts');
  const handle = await openDatabase(target);
  await handle.migrate();
  useDatabaseHandle(handle);
  try {
    let t = performance.now();
    const planned = await planFirebaseImport(handle.db, project, { projectId: key.projectId, hashConfig: firebaseHashConfigSchema.parse(key.hashConfigJson) });
    if (!planned.ok) throw new Error(`the bench project has problems: ${planned.problems.slice(0, 3).map((p) => p.message).join('; ')}`);
    const planMs = elapsed(t);
    t = performance.now();
    const written = await writeFirebaseImport(handle.db, planned.plan);
    const writeMs = elapsed(t);
    const records = written.members + written.pageTimes;
    return { planMs, writeMs, records, recordsPerSecond: Math.round((records / writeMs) * 1000) };
  } finally {
    await handle.close();
  }
}

export async function firebaseImportBench() {
  const { startFirebaseEmulators, writeServiceAccountKey } = await import('../tests/support/firebase-emulators.ts');
  const { seedFirebaseProject } = await import('../tests/support/firebase-project.ts');
  const { createPostgresDatabase } = await import('../tests/support/postgres-database.ts');
  const { readFirebaseProject } = await import('../src/server/modules/firebase-import/read-firebase.ts');
  const { readServiceAccountKey } = await import('../src/server/modules/firebase-import/service-account.ts');
  const emu = await startFirebaseEmulators();
  try {
    let t = performance.now();
    const seeded = await seedFirebaseProject(emu, { users: MEMBERS, pageViewsPerUser: PAGE_VIEWS_EACH });
    const seedMs = elapsed(t);
    const keyDir = fs.mkdtempSync(`${os.tmpdir()}/bench-firebase-key-`);
    const serviceAccount = readServiceAccountKey(writeServiceAccountKey(keyDir, seeded.projectId));
    fs.rmSync(keyDir, { recursive: true, force: true });
    t = performance.now();
    const project = await readFirebaseProject({ key: serviceAccount, projectId: seeded.projectId });
    const readMs = elapsed(t);
    const key = { projectId: seeded.projectId, hashConfigJson: seeded.hashConfigJson };
    const result = { members: seeded.counts.auth, pageViews: seeded.counts.pageViews, seedMs, readMs, pglite: await importInto({ kind: 'memory' }, project, key) };
    const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (url) {
      const database = await createPostgresDatabase(url, 'bench_fbimport');
      try {
        result.postgres = await importInto({ kind: 'postgres', url: database.url }, project, key);
      } finally {
        await database.drop();
      }
    }
    return result;
  } finally {
    await emu.stop();
  }
}

/** "read 13.1 s, plan 0.4 s, write 4.2 s (9,700 records/s)": one engine's line. */
export function describeImport(r, engine) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const e = r[engine];
  return `read ${s(r.readMs)}, plan ${s(e.planMs)}, write ${s(e.writeMs)} (${e.recordsPerSecond.toLocaleString('en')} records/s); total ${s(r.readMs + e.planMs + e.writeMs)}`;
}

export const importPasses = (r, engine) =>
  r[engine].recordsPerSecond >= IMPORT_TARGET.recordsPerSecond && (r.readMs + r[engine].planMs + r[engine].writeMs) / 1000 < IMPORT_TARGET.totalSeconds;

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await firebaseImportBench();
  if (process.argv.includes('--json')) console.log(JSON.stringify(result));
  else {
    console.log(`${result.members.toLocaleString('en')} members, ${result.pageViews.toLocaleString('en')} page views (seeded in ${(result.seedMs / 1000).toFixed(1)} s)`);
    for (const engine of ['pglite', 'postgres'].filter((e) => result[e])) console.log(`${engine}: ${describeImport(result, engine)} — ${importPasses(result, engine) ? 'PASS' : 'MISS'}`);
  }
  process.exit(0);
}
