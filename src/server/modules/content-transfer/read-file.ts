/**
 * Reading a content file as it streams in (docs/content-format.md), for files of any size up to the media
 * quota: nearly all of a backup's bytes are its images in base64, so the `media` section is taken one
 * record at a time — checked (schema, content hash, decoding) and its bytes put in the import's staging
 * folder — while every other section (small: text) is assembled as JSON.parse would. The server's memory
 * then holds the records and one image, never the file. The tokenizer hands strings, keys and numbers over
 * in pieces, and each is put together here only up to the longest such value a content file has: a file
 * that is one huge string is refused while it streams, before it fills the memory.
 */
import { parser, type Token } from 'stream-json/web/parser.js';
import Assembler from 'stream-json/assembler.js';
import { describeIssue, LIMITS, mediaRecordSchema } from '../../../shared/content-bundle';
import { IMAGE_BASE64_CHARS } from '../../../shared/schemas/fields';
import { verifyStoredImage } from '../../media/process';
import { BodyError, forbiddenKeyIn } from '../../http/request-body';
import type { MediaStaging } from './media-staging';
import { issueProblems, type PathProblem } from './validate';

/** A media record that passed its own checks; its bytes are in the staging folder. */
export interface StagedMediaRecord {
  id: string;
  contentType: 'image/webp';
  width: number;
  height: number;
  alt: string;
}

export interface StagedContentFile {
  /**
   * The file as parsed, except that each media record is reduced to `{ id }` (the checks that look across
   * the file need only the ids).
   */
  json: unknown;
  media: {
    /** The records that passed their checks, in file order. */
    records: StagedMediaRecord[];
    /** The other records' problems, by position (`media[3].width`). */
    problems: PathProblem[];
    bytes(id: string): Promise<Buffer>;
  };
}

export type ReadOutcome =
  | { ok: true; file: StagedContentFile }
  | { ok: false; code: 'EMPTY_FILE' | 'TOO_MANY_VALUES' | 'VALUE_TOO_LONG' | 'INVALID_JSON' | 'FORBIDDEN_KEY'; detail: string };

const VALUE_TOKENS = new Set<string>(['startObject', 'startArray', 'stringValue', 'numberValue', 'nullValue', 'trueValue', 'falseValue']);

/**
 * The body's bytes, counted and refused past `limit` as they pass it, like readBodyCapped. Every failure
 * of the body itself becomes a BodyError (413, or 400 when it broke off), so what reaches the parser's
 * reader as any other error is the file's own.
 */
function cappedBody(body: ReadableStream<Uint8Array>, limit: number, counter: { bytes: number }): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        controller.error(new BodyError(/limit|too large/i.test(String(err)) ? 'REQUEST_TOO_LARGE' : 'UNREADABLE_BODY'));
        return;
      }
      if (chunk.done) return controller.close();
      counter.bytes += chunk.value.byteLength;
      if (counter.bytes > limit) {
        void reader.cancel().catch(() => {});
        controller.error(new BodyError('REQUEST_TOO_LARGE'));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

class FileProblem extends Error {
  constructor(
    readonly code: 'TOO_MANY_VALUES' | 'VALUE_TOO_LONG' | 'FORBIDDEN_KEY',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Each value the tokenizer hands over in pieces: the packed token it becomes, and the longest a content
 * file has (in characters): an image's base64, a field's name, a number's digits.
 */
const PIECEWISE = {
  startKey: { end: 'endKey', packed: 'keyValue', max: 1000, what: 'a field name' },
  startString: { end: 'endString', packed: 'stringValue', max: IMAGE_BASE64_CHARS, what: 'a text value' },
  startNumber: { end: 'endNumber', packed: 'numberValue', max: 100, what: 'a number' },
} as const;

/**
 * The tokens with every string, key and number packed into one token, as the tokenizer packs them, except
 * that one longer than its kind's longest is refused as soon as its pieces pass it (the tokenizer's own
 * packing would have held all of it first).
 */
async function* boundedTokens(tokens: AsyncIterable<Token>): AsyncGenerator<Token> {
  let current: (typeof PIECEWISE)[keyof typeof PIECEWISE] | undefined;
  let pieces: string[] = [];
  let length = 0;
  for await (const token of tokens) {
    if (token.name === 'startKey' || token.name === 'startString' || token.name === 'startNumber') {
      current = PIECEWISE[token.name];
      pieces = [];
      length = 0;
    } else if (token.name === 'stringChunk' || token.name === 'numberChunk') {
      length += token.value.length;
      if (current && length > current.max) throw new FileProblem('VALUE_TOO_LONG', `${current.what} longer than ${current.max.toLocaleString('en-US')} characters`);
      pieces.push(token.value);
    } else if (current && token.name === current.end) {
      const value = pieces.join('');
      pieces = [];
      const packed = current.packed;
      current = undefined;
      yield { name: packed, value } as Token;
    } else {
      yield token;
    }
  }
}

/** One media record: checked, and its bytes staged; its problems otherwise. */
async function stageMediaRecord(record: unknown, index: number, staging: MediaStaging): Promise<{ staged?: StagedMediaRecord; problems: PathProblem[] }> {
  const parsed = mediaRecordSchema.safeParse(record, { error: describeIssue });
  if (!parsed.success) return { problems: issueProblems(parsed.error.issues, ['media', index]) };
  const { data, ...meta } = parsed.data;
  const bytes = Buffer.from(data, 'base64');
  const problem = await verifyStoredImage(bytes, meta);
  if (problem) return { problems: [{ path: ['media', index], message: problem }] };
  await staging.put(meta.id, bytes);
  return { staged: meta, problems: [] };
}

/** TextDecoderStream's refusal of bytes that are not UTF-8. */
const isNotUtf8 = (err: unknown) => (err as { code?: unknown } | undefined)?.code === 'ERR_ENCODING_INVALID_ENCODED_DATA';

/** What the cross-file checks need of a media record: its id (the rest was checked and staged). */
function placeholder(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' ? { id } : {};
}

/**
 * Reads `body` within `limit` bytes and `maxValues` JSON values. Throws BodyError when the body is too
 * large or breaks off; any other failure of the file itself is an outcome.
 */
export async function readContentFile(
  body: ReadableStream<Uint8Array> | null,
  options: { limit: number; maxValues: number; staging: MediaStaging },
): Promise<ReadOutcome> {
  if (!body) return { ok: false, code: 'EMPTY_FILE', detail: 'no body' };
  // Pieces only: boundedTokens packs them, within bounds.
  const { readable, writable } = parser.asWebStream({ packValues: false, streamValues: true });
  const received = { bytes: 0 };
  let bodyError: unknown;
  const piped = cappedBody(body, options.limit, received)
    .pipeThrough(new TextDecoderStream('utf-8', { fatal: true }) as unknown as ReadableWritablePair<string, Uint8Array>)
    .pipeTo(writable)
    .catch((err: unknown) => {
      bodyError = err;
    });

  // The file's object, its sections assembled one by one; `__proto__` and the like are refused as keys.
  const top: Record<string, unknown> = {};
  const media: StagedContentFile['media'] = { records: [], problems: [], bytes: (id) => options.staging.get(id) };
  const placeholders: unknown[] = [];
  let state: 'start' | 'top' | 'media' | 'end' = 'start';
  let key: string | undefined;
  /** The value being assembled: a section (or a whole non-object file), or one media record. */
  let value: Assembler | undefined;
  let values = 0;
  let whole: unknown = top;

  const finishMediaRecord = async (item: unknown) => {
    const index = placeholders.length;
    const forbidden = forbiddenKeyIn(item);
    if (forbidden !== undefined) throw new FileProblem('FORBIDDEN_KEY', forbidden);
    placeholders.push(placeholder(item));
    if (placeholders.length > LIMITS.records) return; // reported once at the end, not checked one by one
    const { staged, problems } = await stageMediaRecord(item, index, options.staging);
    if (staged) media.records.push(staged);
    media.problems.push(...problems);
  };

  try {
    for await (const token of boundedTokens(readable as ReadableStream<Token>)) {
      if (VALUE_TOKENS.has(token.name) && ++values > options.maxValues) {
        throw new FileProblem('TOO_MANY_VALUES', `more than ${options.maxValues.toLocaleString('en-US')} values`);
      }
      if (state === 'start') {
        state = 'top';
        if (token.name === 'startObject') continue;
        value = new Assembler(); // not an object: assembled whole, for the checks to name what it is
      }
      if (value) {
        value.consume(token);
        if (!value.done) continue;
        const done = value.current;
        value = undefined;
        if (state === 'media') await finishMediaRecord(done);
        else if (key === undefined) {
          // The whole file was one value that is not an object: the checks will say so.
          whole = done;
          state = 'end';
        } else {
          top[key] = done;
          key = undefined;
        }
      } else if (state === 'media') {
        if (token.name === 'endArray') {
          state = 'top';
          top.media = placeholders;
        } else {
          value = new Assembler();
          value.consume(token);
          if (value.done) {
            const scalar = value.current;
            value = undefined;
            await finishMediaRecord(scalar);
          }
        }
      } else if (token.name === 'keyValue') {
        key = String(token.value);
        if (forbiddenKeyIn({ [key]: null }) !== undefined) throw new FileProblem('FORBIDDEN_KEY', key);
      } else if (token.name === 'endObject') {
        state = 'end';
      } else if (key === 'media' && token.name === 'startArray') {
        state = 'media';
        key = undefined;
      } else {
        value = new Assembler();
        value.consume(token);
        if (value.done) {
          top[key!] = value.current;
          value = undefined;
          key = undefined;
        }
      }
    }
  } catch (err) {
    if (err instanceof FileProblem) {
      void readable.cancel().catch(() => {});
      return { ok: false, code: err.code, detail: err.message };
    }
    await piped;
    if (bodyError instanceof BodyError) throw bodyError;
    if (isNotUtf8(bodyError)) return { ok: false, code: 'INVALID_JSON', detail: 'it is not UTF-8 text' };
    if (received.bytes === 0) return { ok: false, code: 'EMPTY_FILE', detail: 'empty' };
    return { ok: false, code: 'INVALID_JSON', detail: err instanceof Error ? err.message : String(err) };
  }
  // After the last token: the body's own failure (too large, broken off) wins over what was parsed.
  await piped;
  if (bodyError instanceof BodyError) throw bodyError;
  if (isNotUtf8(bodyError)) return { ok: false, code: 'INVALID_JSON', detail: 'it is not UTF-8 text' };
  if (received.bytes === 0) return { ok: false, code: 'EMPTY_FILE', detail: 'empty' };
  if (state !== 'end') return { ok: false, code: 'INVALID_JSON', detail: 'the file ends before its last value is complete' };
  const forbidden = forbiddenKeyIn(whole);
  if (forbidden !== undefined) return { ok: false, code: 'FORBIDDEN_KEY', detail: forbidden };
  if (placeholders.length > LIMITS.records) {
    media.problems.push({ path: ['media'], message: `holds ${placeholders.length} images; a file may hold at most ${LIMITS.records}` });
  }
  return { ok: true, file: { json: whole, media } };
}
