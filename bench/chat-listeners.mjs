// (i) 100 open chat widgets: what listening for replies costs the server. Creates 100 conversations (each
// from its own client address through the bench server's trusted proxy header, so the per-address limit is
// not what is measured), opens their 100 server-sent event streams, and reads the server's VmRSS before and
// after, and its CPU time over 10 idle seconds (near zero = nothing polls the database). Then an admin
// replies to every conversation and each stream must receive its reply. Plain Node; called by bench/run.mjs.
import fs from 'node:fs';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { percentile } from './percentile.mjs';

export const CHAT_LISTENERS = 100;
export const CHAT_LISTENER_TARGETS = { rssGrowthMb: 50, idleCpuMs: 200, deliveryMs: 2000 };
const IDLE_SECONDS = 10;
/** The header run.mjs sets as TRUSTED_PROXY_IP_HEADER on the bench server. */
export const BENCH_CLIENT_IP_HEADER = 'x-bench-client-ip';

const CLOCK_TICKS_PER_SECOND = 100;

/** Resident memory of a process in MB (Linux). */
function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** User + system CPU time of a process in ms (Linux). */
function cpuMs(pid) {
  // Fields after the command name (which may contain spaces) start at state; utime and stime are 14 and 15.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The i-th widget's own client address. */
const clientIp = (i) => `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`;

async function createConversation(base, i) {
  const visitorId = randomBytes(16).toString('hex');
  // One retry on a network error: the first request may meet a keep-alive socket the server closed
  // while (h) ran in its own process ("fetch failed"), which says nothing about the chat.
  const post = () => fetch(`${base}/api/chat/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: base,
      'x-chat-visitor': visitorId,
      [BENCH_CLIENT_IP_HEADER]: clientIp(i),
    },
    body: JSON.stringify({ body: `Hello, this is widget ${i}. What services do you offer?` }),
  });
  const res = await post().catch((err) => (err instanceof TypeError ? post() : Promise.reject(err)));
  if (res.status !== 200) throw new Error(`POST /api/chat/messages answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const sent = await res.json();
  return { id: sent.conversation.id, token: sent.conversation.streamToken, lastSeq: sent.messages.at(-1).seq, clientIp: clientIp(i) };
}

/** One EventSource-like listener on its own socket: resolves `ready` on the first state event. */
function openStream(base, conversation) {
  const url = new URL(`/api/chat/stream?c=${conversation.id}&t=${encodeURIComponent(conversation.token)}&after=${conversation.lastSeq}`, base);
  const listener = { received: [], ready: undefined, request: undefined, onMessage: undefined };
  listener.ready = new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', [BENCH_CLIENT_IP_HEADER]: conversation.clientIp } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event === 'state') resolve();
          if (event === 'message' && data) {
            const message = JSON.parse(data);
            listener.received.push({ at: performance.now(), message });
            listener.onMessage?.(message);
          }
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
    listener.request = req;
  });
  return listener;
}

async function adminReply(base, cookie, conversationId, body) {
  const res = await fetch(`${base}/_actions/admin.chat.reply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, cookie },
    body: JSON.stringify({ conversationId, body }),
  });
  if (!res.ok) throw new Error(`admin.chat.reply answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

const percentileOf = (values, p) => percentile(values.toSorted((a, b) => a - b), p) ?? NaN;
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Runs the measure against a started bench server. `cookie` is a verified admin's session cookie (for the
 * replies); without it the delivery part is skipped.
 */
export async function chatListeners({ base, pid, cookie, log = () => {} }) {
  log(`creating ${CHAT_LISTENERS} conversations …`);
  const conversations = [];
  for (let i = 0; i < CHAT_LISTENERS; i++) conversations.push(await createConversation(base, i));
  await sleep(1000);
  const rssBefore = rssMb(pid);

  log(`opening ${CHAT_LISTENERS} event streams …`);
  const listeners = conversations.map((c) => openStream(base, c));
  try {
    await Promise.all(listeners.map((l) => l.ready));
    await sleep(2000);
    const rssAfter = rssMb(pid);

    log(`${IDLE_SECONDS} idle seconds with every stream open …`);
    const cpuBefore = cpuMs(pid);
    await sleep(IDLE_SECONDS * 1000);
    const idleCpu = cpuMs(pid) - cpuBefore;

    let delivery = null;
    if (cookie) {
      log('an admin replies to every conversation …');
      const latencies = [];
      // One reply at a time: each latency is the live path's, not a queue of 100 transactions.
      for (const [i, c] of conversations.entries()) {
        const text = `Reply ${i} from the bench`;
        const arrived = new Promise((resolve) => {
          listeners[i].onMessage = (m) => m.author === 'admin' && m.body === text && resolve(performance.now());
        });
        const started = performance.now();
        await adminReply(base, cookie, c.id, text);
        const at = await Promise.race([arrived, sleep(5000).then(() => undefined)]);
        if (at !== undefined) latencies.push(at - started);
      }
      delivery = { delivered: latencies.length, p50Ms: round(percentileOf(latencies, 50)), p95Ms: round(percentileOf(latencies, 95)), maxMs: round(Math.max(...latencies)) };
    }
    return { listeners: CHAT_LISTENERS, rssBeforeMb: round(rssBefore), rssAfterMb: round(rssAfter), rssGrowthMb: round(rssAfter - rssBefore), idleCpuMs: round(idleCpu, 0), idleSeconds: IDLE_SECONDS, delivery };
  } finally {
    for (const l of listeners) l.request?.destroy();
  }
}
