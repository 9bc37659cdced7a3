/**
 * `npm run content:import -- file.json`: validates every record of a content file and imports it in one
 * transaction, or reports each problem and imports nothing (exit 1). With the embedded database, run it
 * while the server is stopped: it takes the data-folder lock.
 */
import { readJsonFile } from '../src/server/json-file';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const file = process.argv.slice(2).find((a) => a !== '--');
if (!file) fail('Usage: npm run content:import -- <file.json>');

// Read and parse before opening the database: a wrong path should not wait for the database.
const read = readJsonFile(file);
if (!read.ok) fail('unreadable' in read ? `Cannot read ${file}: ${read.unreadable}` : `${file} is not valid JSON: ${read.invalid}`);
const json = read.value;

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
