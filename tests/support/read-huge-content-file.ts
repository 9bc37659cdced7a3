/**
 * Reads a content file that is one huge string (issue 36: a 510 MB string once peaked the server at 1.2 GB)
 * through the import's streaming reader, in a process of its own so that the growth of its RSS is this
 * read's alone. Prints `{ outcome, sentMiB, rssGrowthMiB }` as JSON. Usage: node --import tsx
 * read-huge-content-file.ts <MiB of the string>. Run by tests/integration/content-import-stream.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openMediaStaging } from '../../src/server/modules/content-transfer/media-staging';
import { readContentFile } from '../../src/server/modules/content-transfer/read-file';

const MiB = 1024 * 1024;
const total = Number(process.argv[2] ?? 160);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'huge-content-'));
const staging = await openMediaStaging(dataDir);

// The body as an upload arrives: 64 KiB pieces, the string never whole in this process.
const piece = new Uint8Array(64 * 1024).fill(0x61);
const parts = [new TextEncoder().encode('{"format":"agency-site-content","version":1,"media":[{"id":"x","data":"')];
let sent = 0;
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
const body = new ReadableStream<Uint8Array>({
  pull(c) {
    sample();
    if (parts.length) return c.enqueue(parts.shift()!);
    if (sent < total * MiB) {
      sent += piece.byteLength;
      return c.enqueue(piece);
    }
    c.enqueue(new TextEncoder().encode('"}]}'));
    c.close();
  },
});
const before = process.memoryUsage().rss;
const timer = setInterval(sample, 5);
const outcome = await readContentFile(body, { limit: 4096 * MiB, maxValues: 1_000_000, staging });
clearInterval(timer);
sample();
await staging.dispose();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify({ outcome, sentMiB: sent / MiB, rssGrowthMiB: (peak - before) / MiB }));
