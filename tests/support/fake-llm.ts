/**
 * A local stand-in for an OpenAI-compatible chat-completions endpoint (node:http on 127.0.0.1, a random
 * port) for the chat's LLM-mode tests. It records every request and answers in the chosen mode.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLlmMode =
  /** Streams `chunks` as SSE deltas, then `[DONE]`. */
  | 'stream'
  /** 500 with a JSON error body. */
  | 'error'
  /** Sends the response head, then nothing (until the client gives up). */
  | 'silent'
  /** Sends the first chunk, then stalls before the rest. */
  | 'stall'
  /** A `data:` line that is not JSON. */
  | 'malformed'
  /** Chunks, then the connection ends without `[DONE]`. */
  | 'truncated';

export interface FakeLlmRequest {
  authorization: string | undefined;
  body: { model?: string; stream?: boolean; messages?: { role: string; content: string }[] };
}

export interface FakeLlm {
  /** The full chat-completions URL. */
  url: string;
  requests: FakeLlmRequest[];
  mode: FakeLlmMode;
  chunks: string[];
  close(): Promise<void>;
}

const event = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

export async function startFakeLlm(mode: FakeLlmMode = 'stream', chunks: string[] = ['Setup takes ', 'ten to fourteen ', 'days.']): Promise<FakeLlm> {
  const open = new Set<http.ServerResponse>();
  const fake: FakeLlm = { url: '', requests: [], mode, chunks, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      fake.requests.push({ authorization: req.headers.authorization, body: JSON.parse(raw || '{}') as FakeLlmRequest['body'] });
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      if (fake.mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream exploded' } }));
        return;
      }
      open.add(res);
      res.on('close', () => open.delete(res));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // The role announcement real endpoints send first carries no content.
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`);
      switch (fake.mode) {
        case 'silent':
          return;
        case 'stall':
          res.write(event(fake.chunks[0] ?? ''));
          return;
        case 'malformed':
          res.end(`${event(fake.chunks[0] ?? '')}data: {not json\n\n`);
          return;
        case 'truncated':
          res.end(fake.chunks.map(event).join(''));
          return;
        default:
          for (const c of fake.chunks) res.write(event(c));
          res.end('data: [DONE]\n\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
