/**
 * POST /api/admin/content/import — a content file (docs/content-format.md) uploaded from the admin's
 * "Backup and move" page, as the request body. Every record is checked first; when any is wrong nothing
 * is imported and every problem comes back by position and field (422), as `npm run content:import`
 * prints them. A good file is imported in one transaction, recorded as one 'import' activity entry, and
 * every cached public page is dropped so visitors see it on their next request. Admin only.
 */
import type { APIRoute } from 'astro';
import { CACHE_TAGS, invalidateTags } from '../../../../server/cache/tags';
import { config } from '../../../../server/config';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { BodyError } from '../../../../server/http/request-body';
import { logger } from '../../../../server/logger';
import { importAsAdmin, openMediaStaging, readContentFile, type ReadOutcome, type StagedContentFile } from '../../../../server/modules/content-transfer';
import { formatBytes } from '../../../../shared/media-library';
import { cleanFileName, contentFileLimitBytes, FILE_NAME_HEADER, MAX_CONTENT_FILE_VALUES, nothingImportedMessage, type ImportAnswer } from '../../../../shared/content-transfer';

const answer = (status: number, body: ImportAnswer) => jsonResponse(status, body);

/** Why the upload is not a content file at all (400), in words for the admin. */
function fileRefusal(outcome: Exclude<ReadOutcome, { ok: true }>, fileName: string): Response {
  const refuse = (code: 'INVALID_FILE' | 'EMPTY_FILE', message: string) => answer(400, { ok: false, code, message });
  switch (outcome.code) {
    case 'EMPTY_FILE':
      return refuse('EMPTY_FILE', `${fileName} is empty: choose the file that “Download the content file” saved.`);
    case 'TOO_MANY_VALUES':
      return refuse('INVALID_FILE', `${fileName} holds more than ${MAX_CONTENT_FILE_VALUES.toLocaleString('en-US')} values, far more than a content file has. Nothing was imported.`);
    case 'VALUE_TOO_LONG':
      return refuse('INVALID_FILE', `${fileName} holds ${outcome.detail}, far longer than anything a content file has. Nothing was imported.`);
    case 'FORBIDDEN_KEY':
      return refuse('INVALID_FILE', `${fileName} contains a field named “${outcome.detail}”, which no content file has. Nothing was imported.`);
    case 'INVALID_JSON':
      return refuse('INVALID_FILE', `${fileName} is not valid JSON (${outcome.detail}). Nothing was imported.`);
  }
}

/** One import at a time per process: each holds its records in memory and its images on disk until written. */
let importRunning = false;

export const POST: APIRoute = async (context) => {
  const { locals } = context;
  const refused = adminApiRefusal(locals.user);
  if (refused) return refused;
  if (importRunning) {
    return jsonResponse(409, { ok: false, code: 'IMPORT_RUNNING', message: 'Another import is running. Try again when it has finished.' });
  }
  importRunning = true;
  try {
    return await importFile(context);
  } finally {
    importRunning = false;
  }
};

async function importFile(context: Parameters<APIRoute>[0]): Promise<Response> {
  const { request } = context;
  const fileName = cleanFileName(request.headers.get(FILE_NAME_HEADER));
  // Any backup this site made fits: its records and every image the media quota allows.
  const limit = contentFileLimitBytes(config().MEDIA_QUOTA_BYTES);
  if (Number(request.headers.get('content-length') ?? 0) > limit) return tooLarge(fileName, limit);

  // The file is read as it arrives: its images go to a staging folder one at a time, never all in memory.
  const staging = await openMediaStaging(config().dataDir);
  try {
    let read: ReadOutcome;
    try {
      read = await readContentFile(request.body, { limit, maxValues: MAX_CONTENT_FILE_VALUES, staging });
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      if (err.code === 'REQUEST_TOO_LARGE') return tooLarge(fileName, limit);
      return jsonResponse(err.status, { code: err.code, message: err.message });
    }
    if (!read.ok) return fileRefusal(read, fileName);
    return await importStaged(context, read.file, fileName);
  } catch (err) {
    logger.error({ err, fileName }, 'content import failed');
    return answer(500, { ok: false, code: 'IMPORT_FAILED', message: 'The import failed on the server and nothing was imported. Please try again.' });
  } finally {
    await staging.dispose().catch((err: unknown) => logger.warn({ err }, 'could not remove the import staging folder'));
  }
}

function tooLarge(fileName: string, limit: number): Response {
  return jsonResponse(413, {
    code: 'REQUEST_TOO_LARGE',
    message: `${fileName} is larger than ${formatBytes(limit)}, the most this site imports (its records and a full media library). Nothing was imported.`,
  });
}

async function importStaged(context: Parameters<APIRoute>[0], file: StagedContentFile, fileName: string): Promise<Response> {
  const { locals } = context;
  try {
    const result = await importAsAdmin(locals.user?.id, file, fileName);
    if (!result.ok) {
      return answer(422, { ok: false, code: 'INVALID_CONTENT', message: nothingImportedMessage(result.problems.length, fileName), problems: result.problems });
    }
    // Any public page may show imported content (texts and SEO are on every page): drop them all.
    await invalidateTags(context, Object.values(CACHE_TAGS));
    logger.info({ actorId: locals.user?.id, fileName, summary: result.summary }, 'content imported from the admin');
    return answer(200, { ok: true, message: `Imported ${result.description}.`, activityId: result.activityId });
  } catch (err) {
    const refusal = usersErrorResponse(err);
    if (refusal) return refusal;
    throw err;
  }
}
