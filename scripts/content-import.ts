/**
 * `npm run content:import -- file.json`: validates every record of a content file and imports it in one
 * transaction, or reports each problem and imports nothing (exit 1). With the embedded database, run it
 * while the server is stopped: it takes the data-folder lock.
 */
import fs from 'node:fs';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const file = process.argv.slice(2).find((a) => a !== '--');
if (!file) fail('Usage: npm run content:import -- <file.json>');

// Read and parse before opening the database: a wrong path should not wait for the database.
let text: string;
try {
  text = fs.readFileSync(file, 'utf8');
} catch (err) {
  const code = (err as NodeJS.ErrnoException).code;
  fail(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}`);
}
let json: unknown;
try {
  json = JSON.parse(text.replace(/^\uFEFF/, ''));
} catch (err) {
  fail(`${file} is not valid JSON: ${(err as Error).message}`);
}

// Loaded only now: a typo in the path should answer at once, not after loading the database and sharp.
const { runWithDatabase, UsageError } = await import('./cli');
const { describeImportSummary, importContentBundle } = await import('../src/server/modules/content-transfer');

await runWithDatabase(async () => {
  const result = await importContentBundle(json);
  if (!result.ok) {
    for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
    const n = result.problems.length;
    throw new UsageError(`Nothing was imported: ${n} problem${n === 1 ? '' : 's'} in ${file}.`);
  }
  console.log(`Imported ${describeImportSummary(result.summary)}.`);
});
