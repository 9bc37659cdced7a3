/**
 * POST /api/admin/content/import — a content file (docs/content-format.md) uploaded from the admin's
 * "Backup and move" page, as the request body. Every record is checked first; when any is wrong nothing
 * is imported and every problem comes back by position and field (422), as `npm run content:import`
 * prints them. A good file is imported in one transaction, recorded as one 'import' activity entry, and
 * every cached public page is dropped so visitors see it on their next request. Admin only.
 */
import type { APIRoute } from 'astro';
import { CACHE_TAGS, invalidateTags } from '../../../../server/cache/tags';
import { adminApiRefusal, jsonResponse, usersErrorResponse } from '../../../../server/http/admin-api';
import { BodyError, forbiddenKeyIn, jsonValuesExceed, readBodyCapped } from '../../../../server/http/request-body';
import { logger } from '../../../../server/logger';
import { importAsAdmin } from '../../../../server/modules/content-transfer';
import { cleanFileName, FILE_NAME_HEADER, MAX_CONTENT_FILE_BYTES, MAX_CONTENT_FILE_VALUES, nothingImportedMessage, type ImportAnswer } from '../../../../shared/content-transfer';

const answer = (status: number, body: ImportAnswer) => jsonResponse(status, body);

/** The file's JSON, or the reason it is not a content file at all (400). */
function parseFile(bytes: Uint8Array, fileName: string): { ok: true; json: unknown } | { ok: false; response: Response } {
  const refuse = (code: 'INVALID_FILE' | 'EMPTY_FILE', message: string) => ({ ok: false as const, response: answer(400, { ok: false, code, message }) });
  if (bytes.byteLength === 0) return refuse('EMPTY_FILE', `${fileName} is empty: choose the file that “Download the content file” saved.`);
  // Parsed once, and only when what it would allocate fits the server's memory (the values, not the bytes).
  if (jsonValuesExceed(bytes, MAX_CONTENT_FILE_VALUES)) {
    return refuse('INVALID_FILE', `${fileName} holds more than ${MAX_CONTENT_FILE_VALUES.toLocaleString('en-US')} values, far more than a content file has. Nothing was imported.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''));
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : 'it is not UTF-8 text';
    return refuse('INVALID_FILE', `${fileName} is not valid JSON (${reason}). Nothing was imported.`);
  }
  const key = forbiddenKeyIn(json);
  if (key !== undefined) return refuse('INVALID_FILE', `${fileName} contains a field named “${key}”, which no content file has. Nothing was imported.`);
  return { ok: true, json };
}

/** One import at a time per process: each holds its file in memory until it is written. */
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
  const { request, locals } = context;
  const fileName = cleanFileName(request.headers.get(FILE_NAME_HEADER));

  let bytes: Uint8Array;
  try {
    bytes = await readBodyCapped(request, MAX_CONTENT_FILE_BYTES);
  } catch (err) {
    if (err instanceof BodyError) return jsonResponse(err.status, { code: err.code, message: err.message });
    throw err;
  }
  const file = parseFile(bytes, fileName);
  if (!file.ok) return file.response;

  try {
    const result = await importAsAdmin(locals.user?.id, file.json, fileName);
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
    logger.error({ err, fileName }, 'content import failed');
    return answer(500, { ok: false, code: 'IMPORT_FAILED', message: 'The import failed on the server and nothing was imported. Please try again.' });
  }
}
