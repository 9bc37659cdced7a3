/**
 * A local stand-in for an OpenAI-compatible chat-completions endpoint for the chat's LLM-mode tests: https
 * on 127.0.0.1 with a certificate made in the test, reached as https://llm.test:PORT through the safe
 * fetch's test network (stand-in-https.ts). It records every request and answers in the chosen mode.
 */
import type http from 'node:http';
import { startStandIn, type StandInHost } from './stand-in-https';

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
  | 'truncated'
  /** 307 to `redirectTo` (an API never redirects: the client must not follow). */
  | 'redirect';

export interface FakeLlmRequest {
  authorization: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: { model?: string; stream?: boolean; messages?: { role: string; content: string }[] };
}

export interface FakeLlm {
  /** The full chat-completions URL: https://llm.test:PORT/v1/chat/completions. */
  url: string;
  /** https://llm.test:PORT */
  origin: string;
  port: number;
  /** Where the `redirect` mode sends the client. */
  redirectTo: string;
  requests: FakeLlmRequest[];
  mode: FakeLlmMode;
  chunks: string[];
  close(): Promise<void>;
}

const event = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

export async function startFakeLlm(mode: FakeLlmMode = 'stream', chunks: string[] = ['Setup takes ', 'ten to fourteen ', 'days.'], host: StandInHost = 'llm.test'): Promise<FakeLlm> {
  const open = new Set<http.ServerResponse>();
  const fake: FakeLlm = { url: '', origin: '', port: 0, redirectTo: '', requests: [], mode, chunks, close: async () => undefined };
  const server = await startStandIn((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      let body: FakeLlmRequest['body'] = {};
      try {
        body = JSON.parse(raw || '{}') as FakeLlmRequest['body'];
      } catch {
        // Recorded as an empty body: the tests read the headers of such a request.
      }
      fake.requests.push({ authorization: req.headers.authorization, headers: req.headers, body });
      if (fake.mode === 'redirect') {
        res.writeHead(307, { location: fake.redirectTo }).end();
        return;
      }
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
  fake.port = server.port;
  fake.origin = server.origin(host);
  fake.url = `${fake.origin}/v1/chat/completions`;
  fake.close = () => {
    for (const res of open) res.destroy();
    return server.close();
  };
  return fake;
}
