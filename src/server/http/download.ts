/**
 * File downloads from the admin export routes: one place for the headers (attachment name, never cached)
 * and for the CSV byte-order mark, so every export behaves the same.
 */
import { logger } from '../logger';
import { jsonResponse, usersErrorResponse } from './admin-api';

/** Today's date (UTC) for a file name, e.g. "2026-11-25". */
export function fileDay(): string {
  return new Date().toISOString().slice(0, 10);
}

export function downloadResponse(body: BodyInit, filename: string, contentType: string): Response {
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

// A byte-order mark first: spreadsheet programs then read the file as UTF-8 (names with accents stay right).
const BOM = '\uFEFF';
const CSV_TYPE = 'text/csv; charset=utf-8';

/** A CSV made in full. */
export function csvDownload(csv: string, filename: string): Response {
  return downloadResponse(`${BOM}${csv}`, filename, CSV_TYPE);
}

/**
 * Text streamed as its pieces are made (large exports never sit whole in memory). `what` names the export
 * in the log if making it fails once the headers are sent: the download then breaks off as a failed
 * transfer, never as a complete-looking file.
 */
export function textStream(chunks: AsyncGenerator<string>, what: string, prefix = ''): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(first ? `${prefix}${next.value}` : next.value));
        first = false;
      } catch (err) {
        logger.error({ err }, `${what} failed while streaming`);
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** A CSV streamed as its chunks are read. */
export function csvStreamDownload(chunks: AsyncGenerator<string>, filename: string, what: string): Response {
  return downloadResponse(textStream(chunks, what, BOM), filename, CSV_TYPE);
}

/** An export that could not be made: the service's refusal as it is, anything else logged and a 500. */
export function exportFailure(err: unknown, what: string, message = 'The export could not be made. Please try again.'): Response {
  const refusal = usersErrorResponse(err);
  if (refusal) return refusal;
  logger.error({ err }, `${what} failed`);
  return jsonResponse(500, { code: 'EXPORT_FAILED', message });
}
