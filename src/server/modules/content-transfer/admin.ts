/**
 * Export and import from the admin's "Backup and move" page: the same file and the same all-or-nothing
 * import as the CLI (docs/content-format.md), for a signed-in admin only (checked again here, whatever
 * route calls it), and a successful import recorded in the activity log as one 'import' entry in the
 * transaction that wrote it.
 */
import { db } from '../../db';
import { insertActivity } from '../activity/repository';
import { requireAdmin } from '../users/service';
import { openContentFile } from './export';
import { describeImportSummary, importContentBundleIn, type ImportSummary } from './import';
import type { StagedContentFile } from './read-file';
import type { Problem } from './validate';

/** The activity log's type for whole-file changes (no single record). */
export const IMPORT_ENTITY_TYPE = 'content';

/** The content file as a stream (see openContentFile). */
export async function exportAsAdmin(actorId: string | undefined, now = new Date()) {
  await requireAdmin(actorId, db());
  return openContentFile(now);
}

export type AdminImportResult =
  | { ok: true; summary: ImportSummary; description: string; activityId: string }
  | { ok: false; problems: Problem[] };

/**
 * A file read as it was uploaded (read-file.ts). `fileName` only names the entry ("Imported backup.json:
 * …"); it is never used as a path.
 */
export async function importAsAdmin(actorId: string | undefined, file: StagedContentFile, fileName: string): Promise<AdminImportResult> {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const result = await importContentBundleIn(tx, file.json, new Date(), file.media);
    if (!result.ok) return result;
    const description = describeImportSummary(result.summary);
    const entry = await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'import',
      entityType: IMPORT_ENTITY_TYPE,
      entityId: fileName,
      summary: `Imported ${fileName}: ${description}`,
      before: null,
      after: result.summary,
      revertOf: null,
    });
    return { ok: true, summary: result.summary, description, activityId: entry.id };
  });
}
