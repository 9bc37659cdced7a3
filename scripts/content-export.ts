/**
 * `npm run content:export` writes every public entity as one content file (docs/content-format.md) to
 * stdout, or with `-- --out file.json` to a file. With the embedded database, run it while the server
 * is stopped: it takes the data-folder lock.
 */
import fs from 'node:fs';
import { exportContentBundle } from '../src/server/modules/content-transfer';
import { runWithDatabase, UsageError } from './cli';

const args = process.argv.slice(2).filter((a) => a !== '--');
const outIndex = args.findIndex((a) => a === '--out' || a.startsWith('--out='));
const out = outIndex === -1 ? undefined : args[outIndex]!.startsWith('--out=') ? args[outIndex]!.slice(6) : args[outIndex + 1];

await runWithDatabase(async () => {
  if (outIndex !== -1 && !out) throw new UsageError('Usage: npm run content:export [-- --out file.json]');
  const bundle = await exportContentBundle();
  const json = `${JSON.stringify(bundle, null, 2)}\n`;
  if (!out) {
    process.stdout.write(json);
    return;
  }
  try {
    fs.writeFileSync(out, json);
  } catch (err) {
    throw new UsageError(`Cannot write ${out}: ${(err as Error).message}`);
  }
  const counts = ['services', 'demos', 'packages', 'articles', 'faqs', 'media'] as const;
  console.error(`Exported ${counts.map((k) => `${bundle[k]?.length ?? 0} ${k}`).join(', ')} to ${out}.`);
});
