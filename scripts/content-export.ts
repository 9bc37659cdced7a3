/**
 * `npm run content:export` writes every public entity as one content file (docs/content-format.md) to
 * stdout, or with `-- --out file.json` to a file. With the embedded database, run it while the server
 * is stopped: it takes the data-folder lock.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { openContentFile } from '../src/server/modules/content-transfer';
import { runWithDatabase, UsageError } from './cli';

const args = process.argv.slice(2).filter((a) => a !== '--');
const outIndex = args.findIndex((a) => a === '--out' || a.startsWith('--out='));
const out = outIndex === -1 ? undefined : args[outIndex]!.startsWith('--out=') ? args[outIndex]!.slice(6) : args[outIndex + 1];

await runWithDatabase(async () => {
  if (outIndex !== -1 && !out) throw new UsageError('Usage: npm run content:export [-- --out file.json]');
  const file = await openContentFile();
  let sink: NodeJS.WritableStream;
  try {
    sink = out ? fs.createWriteStream(out) : process.stdout;
    if (out) await once(sink, 'open');
  } catch (err) {
    throw new UsageError(`Cannot write ${out}: ${(err as Error).message}`);
  }
  // Written as the images are read: a large library never sits whole in memory.
  for await (const piece of file.text) {
    if (!sink.write(piece)) await once(sink, 'drain');
  }
  if (!out) return;
  await new Promise<void>((resolve, reject) => (sink as fs.WriteStream).end((err?: Error | null) => (err ? reject(err) : resolve())));
  console.error(`Exported ${Object.entries(file.counts).map(([k, n]) => `${n} ${k}`).join(', ')} to ${out}.`);
});
