/**
 * CDN purges from the database queue (docs/decisions/024): every tag invalidation queues one, a pass sends
 * the collapsed tags once to a real HTTP endpoint (a stand-in for Varnish's purge), a failure stays with its
 * error and a growing wait and is what the admin overview shows, and two passes at once send a purge once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const purgeEndpoint = vi.hoisted(() => {
  // The target comes from the environment, read once: set before the app's modules load.
  process.env.CDN_PURGE = 'varnish';
  process.env.CDN_PURGE_URL = 'http://127.0.0.1:9/'; // replaced per test through the target argument
  return { received: [] as { method: string; keys: string }[], status: 200 };
});

import { CACHE_TAGS, invalidateTags } from '../../src/server/cache/tags';
import { cdnPurgeProblem, purgeRetryDelayMs, sendDuePurges, sendPurgeRequests } from '../../src/server/cdn/purge-queue';
import { purgeRequests, type PurgeTarget } from '../../src/server/cdn/purge-targets';
import type { DatabaseHandle } from '../../src/server/db/client';
import { cdnPurges } from '../../src/server/db/schema';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
let server: http.Server;
let target: PurgeTarget;

beforeAll(async () => {
  handle = await freshDatabase();
  server = http.createServer((req, res) => {
    purgeEndpoint.received.push({ method: req.method ?? '', keys: String(req.headers['surrogate-key'] ?? '') });
    res.writeHead(purgeEndpoint.status, { 'Content-Type': 'text/plain' });
    res.end(purgeEndpoint.status === 200 ? 'Banned.' : 'Backend fetch failed');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = { kind: 'varnish', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await handle.close();
});
beforeEach(async () => {
  await handle.db.delete(cdnPurges);
  purgeEndpoint.received.length = 0;
  purgeEndpoint.status = 200;
});

const noCache = { cache: undefined } as never;
/**
 * A pass's "now", a ms on: a row's due time is PostgreSQL's clock in microseconds and a JS date is whole ms
 * behind it, so a row written in the same ms would wait for the next pass (failed on CI).
 */
const passNow = () => new Date(Date.now() + 1);
const send = (t: PurgeTarget, tags: string[]) => sendPurgeRequests(t, purgeRequests(t, tags));

describe('CDN purge queue', () => {
  it('queues every tag invalidation and sends the tags of all of them once, in one PURGE', async () => {
    await invalidateTags(noCache, [CACHE_TAGS.faqs, CACHE_TAGS.landing]);
    await invalidateTags(noCache, [CACHE_TAGS.faqs]);
    await invalidateTags(noCache, [CACHE_TAGS.seo, CACHE_TAGS.landing]);
    expect(await handle.db.select().from(cdnPurges)).toHaveLength(3);

    const pass = await sendDuePurges(target, send, passNow());
    expect(pass).toEqual({ outcome: 'sent', tags: ['faqs', 'landing', 'seo'] });
    expect(purgeEndpoint.received).toEqual([{ method: 'PURGE', keys: 'faqs landing seo' }]);
    expect(await handle.db.select().from(cdnPurges)).toHaveLength(0);
    expect(await sendDuePurges(target, send, passNow())).toEqual({ outcome: 'idle' });
  });

  it('keeps a failed purge as one row with its error, retries it after a growing wait, and the admin sees it until it goes through', async () => {
    purgeEndpoint.status = 503;
    await invalidateTags(noCache, [CACHE_TAGS.services]);
    await invalidateTags(noCache, [CACHE_TAGS.packages]);
    const t0 = passNow();
    expect(await sendDuePurges(target, send, t0)).toMatchObject({ outcome: 'failed' });

    const rows = await handle.db.select().from(cdnPurges);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tags: ['packages', 'services'], attempts: 1 });
    expect(rows[0]!.lastError).toMatch(/varnish answered 503: Backend fetch failed/);
    expect(rows[0]!.nextAttemptAt.getTime()).toBe(t0.getTime() + purgeRetryDelayMs(1));

    const problem = await cdnPurgeProblem();
    expect(problem).toMatchObject({ attempts: 1, tags: ['packages', 'services'] });
    expect(problem!.failingSince.getTime()).toBe(t0.getTime());

    // Not due yet: nothing is sent before the wait is over.
    expect(await sendDuePurges(target, send, t0)).toEqual({ outcome: 'idle' });
    const t1 = new Date(t0.getTime() + purgeRetryDelayMs(1));
    expect(await sendDuePurges(target, send, t1)).toMatchObject({ outcome: 'failed' });
    const [second] = await handle.db.select().from(cdnPurges);
    expect(second!.attempts).toBe(2);
    expect(second!.nextAttemptAt.getTime()).toBe(t1.getTime() + purgeRetryDelayMs(2));
    expect((await cdnPurgeProblem())!.failingSince.getTime()).toBe(t0.getTime());

    purgeEndpoint.status = 200;
    const t2 = new Date(second!.nextAttemptAt.getTime());
    expect(await sendDuePurges(target, send, t2)).toEqual({ outcome: 'sent', tags: ['packages', 'services'] });
    expect(await cdnPurgeProblem()).toBeNull();
    expect(purgeEndpoint.received.map((r) => r.keys)).toEqual(['packages services', 'packages services', 'packages services']);
  });

  it('says why when the endpoint cannot be reached', async () => {
    await invalidateTags(noCache, [CACHE_TAGS.demos]);
    await sendDuePurges({ kind: 'varnish', url: 'http://127.0.0.1:9/' }, send, passNow());
    expect((await cdnPurgeProblem())!.lastError).toMatch(/^varnish could not be reached at http:\/\/127\.0\.0\.1:9: /);
  });

  it('grows the wait from 1 s to at most 5 minutes', () => {
    expect([1, 2, 3, 10, 100].map(purgeRetryDelayMs)).toEqual([1_000, 2_000, 4_000, 300_000, 300_000]);
  });

  it('sends a purge once when two passes (two processes) run at the same moment', async () => {
    for (let i = 0; i < 20; i++) await invalidateTags(noCache, [CACHE_TAGS.articles]);
    const sent: string[][] = [];
    const slowSend = async (_t: PurgeTarget, tags: string[]) => {
      sent.push(tags);
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    const passes = await Promise.all([sendDuePurges(target, slowSend, passNow()), sendDuePurges(target, slowSend, passNow()), sendDuePurges(target, slowSend, passNow())]);
    expect(sent).toEqual([['articles']]);
    expect(passes.filter((p) => p.outcome === 'sent')).toHaveLength(1);
    expect(await handle.db.select().from(cdnPurges)).toHaveLength(0);
  });
});
