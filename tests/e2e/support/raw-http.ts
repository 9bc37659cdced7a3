/**
 * How the fuzz spec sends: node:http (fetch and Playwright's client refuse some methods, bodies on GET and
 * other malformed things), or a plain socket for what node:http changes (lower-case methods, CONNECT). One
 * fresh connection per request, so a connection the server closes never fails the next request.
 */
import http from 'node:http';
import net from 'node:net';

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Transfer-Encoding: chunked in random slices, no Content-Length. */
  chunked: boolean;
}

export interface WireOutcome {
  status?: number;
  /** The start of the answer's body (text, up to 4 KB), for the failure table. */
  answer: string;
  /** Set when no complete answer came: reset, hang-up, timeout. */
  error?: string;
  ms: number;
}

const PREVIEW = 4096;

/** Node's client upper-cases methods and opens a tunnel for CONNECT: those go over a plain socket. */
const needsRawSocket = (method: string) => method !== method.toUpperCase() || method === 'CONNECT';

export function send(baseURL: string, req: WireRequest, timeoutMs: number): Promise<WireOutcome> {
  return needsRawSocket(req.method) ? sendRaw(baseURL, req, timeoutMs) : sendHttp(baseURL, req, timeoutMs);
}

/** Splits a body into 1–8 random-sized slices (a deterministic split: the body's length seeds it). */
function slices(body: Buffer): Buffer[] {
  if (body.length < 2) return [body];
  const count = 1 + (body.length % 8);
  const out: Buffer[] = [];
  let offset = 0;
  for (let i = 1; i <= count; i++) {
    const end = i === count ? body.length : Math.max(offset, Math.floor((body.length * i * i) / (count * count)));
    out.push(body.subarray(offset, end));
    offset = end;
  }
  return out.filter((s) => s.length > 0);
}

function sendHttp(baseURL: string, req: WireRequest, timeoutMs: number): Promise<WireOutcome> {
  const { hostname, port } = new URL(baseURL);
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<WireOutcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, ms: Date.now() - started });
    };
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.chunked) headers['Transfer-Encoding'] = 'chunked';
    else if (req.body.length > 0) headers['Content-Length'] = req.body.length;

    let status: number | undefined;
    let answer = '';
    const request = http.request({ host: hostname, port: Number(port), method: req.method, path: req.path, headers, agent: false }, (res) => {
      status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (answer.length < PREVIEW) answer += chunk.slice(0, PREVIEW - answer.length);
      });
      res.on('end', () => finish({ status, answer }));
      res.on('error', (err) => finish({ status, answer, error: `answer cut off: ${err.message}` }));
    });
    const timer = setTimeout(() => request.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    // An error after the answer ended (e.g. EPIPE: the server refused early and closed) changes nothing.
    request.on('error', (err: NodeJS.ErrnoException) => finish({ status, answer, error: `${err.code ?? ''} ${err.message}`.trim() }));

    if (req.chunked) for (const slice of slices(req.body)) request.write(slice);
    else if (req.body.length > 0) request.write(req.body);
    request.end();
  });
}

/** HTTP/1.1 by hand: the status line and the start of the body are all the table needs. */
function sendRaw(baseURL: string, req: WireRequest, timeoutMs: number): Promise<WireOutcome> {
  const { hostname, port, host } = new URL(baseURL);
  const started = Date.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      const split = text.indexOf('\r\n\r\n');
      resolve({
        status: status ? Number(status) : undefined,
        answer: split === -1 ? '' : text.slice(split + 4, split + 4 + PREVIEW),
        error: status ? undefined : (error ?? 'connection closed without an answer'),
        ms: Date.now() - started,
      });
    };
    const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${req.headers.Host ?? host}`];
    for (const [name, value] of Object.entries(req.headers)) if (name !== 'Host') lines.push(`${name}: ${value}`);
    lines.push('Connection: close', req.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${req.body.length}`);
    const body = req.chunked
      ? Buffer.concat([...slices(req.body).flatMap((s) => [Buffer.from(`${s.length.toString(16)}\r\n`), s, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')])
      : req.body;

    // write, not end: Node's server drops a request whose client half-closes before the answer.
    const socket = net.connect(Number(port), hostname, () => socket.write(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body])));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err: NodeJS.ErrnoException) => finish(`${err.code ?? ''} ${err.message}`.trim()));
    socket.setTimeout(timeoutMs, () => {
      finish(`no complete answer within ${timeoutMs} ms`);
      socket.destroy();
    });
  });
}

/** Runs `work` over `items` with at most `limit` in flight; results keep the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
