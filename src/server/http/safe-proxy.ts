/**
 * A forward proxy on 127.0.0.1 for a browser the server drives (the website audit's Lighthouse): the
 * browser is started with `--proxy-server` pointing here, so it resolves and connects to nothing by itself,
 * and every address it asks for passes the safe fetch's rules (checkTarget): http(s) only, public addresses
 * only, the connection pinned to the checked address (no DNS rebinding), the allowed ports only. Plain http
 * is forwarded request by request; https is a CONNECT tunnel to the checked address (TLS stays between the
 * browser and the site, so certificate errors are the browser's to see). What passes through is bounded in
 * bytes; a refusal is a 403 to the browser and a line in `refused`.
 */
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { checkTarget, SafeFetchError } from './safe-fetch';

export interface SafeProxyOptions {
  /** Ports the browser may reach (stand-in hosts excepted, as in safeFetch). */
  allowedPorts: readonly number[];
  /** Bytes the sites may send through the proxy in all; past it every connection is cut. */
  maxBytes: number;
  /** A request with no answer in this time is cut. */
  requestTimeoutMs: number;
}

export interface SafeProxy {
  /** For `--proxy-server`: http://127.0.0.1:PORT */
  url: string;
  /** Each address refused, with why. */
  readonly refused: readonly { target: string; reason: string }[];
  /** Bytes the sites sent through so far. */
  readonly bytes: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The request's Host is set from the address it names, whatever the browser sent. */
const NOT_FORWARDED_UP = new Set([...HOP_BY_HOP, 'host']);

/** Raw headers ([name, value, …]) without those in `dropped`. */
function forwardable(raw: string[], dropped: ReadonlySet<string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!dropped.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}

const reasonOf = (err: unknown) => (err instanceof SafeFetchError ? err.message : 'The address could not be checked');

export async function startSafeProxy(options: SafeProxyOptions): Promise<SafeProxy> {
  const refused: { target: string; reason: string }[] = [];
  const sockets = new Set<Duplex>();
  let bytes = 0;
  const track = <T extends Duplex>(socket: T): T => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  /** Counts what a site sends; past the bound, everything is cut. */
  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > options.maxBytes) for (const socket of sockets) socket.destroy();
  };
  const refuse = (target: string, err: unknown) => {
    const reason = reasonOf(err);
    refused.push({ target, reason });
    return reason;
  };

  const server = http.createServer(async (req, res) => {
    track(req.socket);
    const target = req.url ?? '';
    let checked;
    try {
      // A proxy request names the whole address; anything else is not for a proxy.
      if (!/^http:\/\//i.test(target)) throw new SafeFetchError('scheme-not-allowed', 'Only absolute http addresses are proxied (https goes through CONNECT)');
      checked = await checkTarget(target, { protocols: ['http:'], allowedPorts: options.allowedPorts });
    } catch (err) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(refuse(target, err));
      return;
    }
    const url = new URL(target);
    const upstream = http.request({
      hostname: checked.host,
      port: checked.port,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers: [...forwardable(req.rawHeaders, NOT_FORWARDED_UP), 'host', url.host],
      lookup: checked.lookup,
      agent: false,
      timeout: options.requestTimeoutMs,
    });
    upstream.on('socket', (socket) => track(socket));
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end('The site did not answer');
      else res.destroy();
    });
    upstream.on('response', (answer) => {
      answer.on('data', count);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.rawHeaders, HOP_BY_HOP));
      answer.pipe(res);
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    let checked;
    try {
      checked = await checkTarget(`https://${target}/`, { protocols: ['https:'], allowedPorts: options.allowedPorts });
    } catch (err) {
      const reason = refuse(target, err);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
      return;
    }
    const upstream = track(net.connect({ host: checked.host, port: checked.port, lookup: checked.lookup, timeout: options.requestTimeoutMs }));
    let established = false;
    upstream.once('connect', () => {
      established = true;
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.on('data', count);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('timeout', () => upstream.destroy());
    upstream.on('error', () => {
      if (!established && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
