/**
 * `npm run content:import -- file.json`: validates every record of a content file and imports it in one
 * transaction, or reports each problem and imports nothing (exit 1). The file is read as a stream, like
 * the admin's import: a backup of a full media library never sits in memory whole. With the embedded
 * database, run it while the server is stopped: it takes the data-folder lock.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const file = process.argv.slice(2).find((a) => a !== '--');
if (!file) fail('Usage: npm run content:import -- <file.json>');

// Checked before opening the database: a wrong path should not wait for the database.
const stat = fs.statSync(file, { throwIfNoEntry: false });
if (!stat) fail(`Cannot read ${file}: no such file`);
if (stat.isDirectory()) fail(`Cannot read ${file}: it is a folder`);

// Loaded only now: a typo in the path should answer at once, not after loading the database and sharp.
const { runWithDatabase, UsageError } = await import('./cli');
const { describeImportSummary, importContentFile, openMediaStaging, readContentFile } = await import('../src/server/modules/content-transfer');
const { MAX_CONTENT_FILE_BYTES, MAX_CONTENT_FILE_VALUES } = await import('../src/shared/content-transfer');

/** Why the file is not a content file at all, in one line. */
function notAContentFile(code: string, detail: string): string {
  if (code === 'EMPTY_FILE') return `${file} is empty. Nothing was imported.`;
  if (code === 'TOO_MANY_VALUES') return `${file} holds more than ${MAX_CONTENT_FILE_VALUES.toLocaleString('en-US')} values, far more than a content file has. Nothing was imported.`;
  if (code === 'VALUE_TOO_LONG') return `${file} holds ${detail}, far longer than anything a content file has. Nothing was imported.`;
  if (code === 'FORBIDDEN_KEY') return `${file} contains a field named "${detail}", which no content file has. Nothing was imported.`;
  return `${file} is not valid JSON: ${detail}`;
}

await runWithDatabase(async ({ cfg }) => {
  const staging = await openMediaStaging(cfg.dataDir);
  try {
    const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
    const read = await readContentFile(body, { limit: MAX_CONTENT_FILE_BYTES, maxValues: MAX_CONTENT_FILE_VALUES, staging });
    if (!read.ok) throw new UsageError(notAContentFile(read.code, read.detail));
    const result = await importContentFile(read.file);
    if (!result.ok) {
      for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
      const n = result.problems.length;
      throw new UsageError(`Nothing was imported: ${n} problem${n === 1 ? '' : 's'} in ${file}.`);
    }
    console.log(`Imported ${describeImportSummary(result.summary)}.`);
  } finally {
    await staging.dispose();
  }
});
