/**
 * A JSON file for a CLI command, or why not, in words for one line of output. Callers word the line; for
 * a file holding a secret they leave `invalid` out, since the parser's message can quote the file.
 */
import fs from 'node:fs';

export type JsonFile = { ok: true; value: unknown } | { ok: false; unreadable: string } | { ok: false; invalid: string };

export function readJsonFile(file: string): JsonFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, unreadable: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message };
  }
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) };
  } catch (err) {
    return { ok: false, invalid: (err as Error).message };
  }
}
