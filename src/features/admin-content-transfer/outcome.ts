/**
 * The import route's answer (src/pages/api/admin/content/import.ts, or the middleware's refusal before
 * it) → what the page says. Pure, so every answer maps to one plain sentence.
 */
import type { ImportProblem } from '../../shared/content-transfer';
import { formatBytes } from '../../shared/media-library';

export type ImportOutcome =
  | { kind: 'imported'; message: string; activityId: string | undefined }
  | { kind: 'problems'; message: string; problems: ImportProblem[] }
  | { kind: 'refused'; message: string }
  /** The server failed or could not be reached: the same file may be sent again (an import is an upsert). */
  | { kind: 'retry' };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
/** Guard messages come without a full stop ("You do not have access to this"); a sentence follows. */
const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

function problemsOf(v: unknown): ImportProblem[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((p) => (isRecord(p) && typeof p.path === 'string' && typeof p.message === 'string' ? [{ path: p.path, message: p.message }] : []));
}

/** `maxBytes`: the largest file the site imports (contentFileLimitBytes of its media quota). */
export function importOutcome(status: number, body: unknown, fileName: string, maxBytes: number): ImportOutcome {
  const data = isRecord(body) ? body : {};
  const message = text(data.message);
  if (status === 200 && data.ok === true) return { kind: 'imported', message: message ?? 'Imported.', activityId: text(data.activityId) };
  if (status === 422) return { kind: 'problems', message: message ?? `Nothing was imported: ${fileName} has problems.`, problems: problemsOf(data.problems) };
  if (status === 413) return { kind: 'refused', message: `${fileName} is larger than ${formatBytes(maxBytes)}, the most this site imports. Nothing was imported.` };
  if (status === 401 || status === 403) {
    return { kind: 'refused', message: `${sentence(message ?? 'Not allowed')} Your session may have ended: log in again as an admin in another tab, then import again.` };
  }
  if (status >= 500 || status === 0) return { kind: 'retry' };
  return { kind: 'refused', message: message ?? `The server refused ${fileName} (status ${status}). Nothing was imported.` };
}

/** Checked before sending: an empty or oversize file gets its answer without an upload. */
export function fileProblem(file: { name: string; size: number }, maxBytes: number): string | undefined {
  if (file.size === 0) return `${file.name} is empty: choose the file that “Download the content file” saved.`;
  if (file.size > maxBytes) return `${file.name} is larger than ${formatBytes(maxBytes)}, the most this site imports.`;
  return undefined;
}
