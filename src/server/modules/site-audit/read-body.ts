/**
 * Reads a response body the safe fetch handed back raw, decompressing it ourselves, bounded by one limit on
 * both the bytes read and the bytes decoded: a gzip bomb (megabytes of zeros in a few kilobytes) stops at
 * the limit without ever holding more, and a stream of empty compressed blocks stops at it too.
 */
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/** keep: the bytes are wanted (HTML, robots.txt); count: only the size (a resource); ignore: neither. */
export type BodyUse = 'keep' | 'count' | 'ignore';

export interface BodyRead {
  /** Bytes read from the wire. */
  transferBytes: number;
  /** Bytes after decompression, at most the limit. */
  bodyBytes: number;
  truncated: boolean;
  /** The decoded bytes (use 'keep'). */
  bytes?: Buffer;
  /** Why the read ended early; the counts say how far it got. */
  error?: unknown;
}

/** A body the audit could not read: its code and message go on the exchange as they are. */
export class BodyReadError extends Error {
  constructor(
    readonly code: 'unsupported-encoding' | 'decode-failed',
    message: string,
  ) {
    super(message);
    this.name = 'BodyReadError';
  }
}

// A body cut at the limit ends mid-stream: decode what arrived instead of failing on the missing end.
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  'x-gzip': () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

/** The decoder for a Content-Encoding header, null for none, or the error to record. */
function decoderFor(contentEncoding: string | undefined): Transform | null | BodyReadError {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  if (codings.length === 0) return null;
  const make = codings.length === 1 && Object.hasOwn(DECODERS, codings[0]!) ? DECODERS[codings[0]!] : undefined;
  return make ? make() : new BodyReadError('unsupported-encoding', `The server compressed the answer as "${codings.join(', ')}", which the audit cannot read (it reads gzip, deflate and br)`);
}

export async function readBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | undefined, options: { limit: number; use: BodyUse }): Promise<BodyRead> {
  const read: BodyRead = { transferBytes: 0, bodyBytes: 0, truncated: false };
  if (!body || options.use === 'ignore') {
    await body?.cancel().catch(() => undefined);
    return read;
  }
  const decoder = decoderFor(contentEncoding);
  if (decoder instanceof BodyReadError) {
    await body.cancel().catch(() => undefined);
    return { ...read, error: decoder };
  }
  const kept: Uint8Array[] = [];

  // Leaving either loop early cancels the safe fetch's stream, which closes the connection.
  let wireError: unknown;
  async function* wire(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body!) {
        read.transferBytes += chunk.byteLength;
        yield chunk;
        if (read.transferBytes > options.limit) {
          read.truncated = true;
          return;
        }
      }
    } catch (err) {
      wireError = err;
      throw err;
    }
  }
  async function keepDecoded(decoded: AsyncIterable<Uint8Array>): Promise<void> {
    for await (const chunk of decoded) {
      const room = options.limit - read.bodyBytes;
      const piece = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      read.bodyBytes += piece.byteLength;
      if (options.use === 'keep') kept.push(piece);
      if (piece.byteLength < chunk.byteLength) {
        read.truncated = true;
        return;
      }
    }
  }

  try {
    if (decoder) await pipeline(Readable.from(wire()), decoder, keepDecoded);
    else await keepDecoded(wire());
  } catch (err) {
    // Stopping at the limit closes the pipeline early, which it reports as an error: not a failure. Else the
    // connection's failure (a timeout) is the one to report, or the decoder found the data damaged.
    if (!read.truncated) read.error = wireError ?? (decoder ? new BodyReadError('decode-failed', `The answer's ${contentEncoding} compression is damaged, so it could not be read`) : err);
  }
  return options.use === 'keep' ? { ...read, bytes: Buffer.concat(kept) } : read;
}
