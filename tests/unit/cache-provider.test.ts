import { describe, expect, it } from 'vitest';
import { cacheKey, createByteLimitedProvider } from '../../src/server/cache/byte-limited-provider';

type Ctx = Parameters<NonNullable<ReturnType<typeof createByteLimitedProvider>['onRequest']>>[0];

function ctx(url: string, method = 'GET'): Ctx {
  const request = new Request(url, { method });
  return { request, url: new URL(url) } as Ctx;
}

/** A page render that counts how often it ran. */
function renderer(init: { status?: number; headers?: Record<string, string>; body?: string } = {}) {
  let renders = 0;
  const next = async () => {
    renders += 1;
    return new Response(init.body ?? `render ${renders}`, {
      status: init.status ?? 200,
      headers: { 'CDN-Cache-Control': 'max-age=300', 'Cache-Tag': 'services, site', 'Content-Security-Policy': "frame-ancestors 'none'", ...init.headers },
    });
  };
  return { next, renders: () => renders };
}

describe('route cache provider', () => {
  it('renders once, then answers from the cache with the same body and security headers', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    const miss = await provider.onRequest!(ctx('http://x/services'), page.next);
    expect(miss.headers.get('X-Astro-Cache')).toBe('MISS');
    expect(await miss.text()).toBe('render 1');
    const hit = await provider.onRequest!(ctx('http://x/services'), page.next);
    expect(hit.headers.get('X-Astro-Cache')).toBe('HIT');
    expect(hit.headers.get('Content-Security-Policy')).toBe("frame-ancestors 'none'");
    expect(await hit.text()).toBe('render 1');
    expect(page.renders()).toBe(1);
  });

  it('never stores a response that sets a cookie, nor replays the cookie', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer({ headers: { 'Set-Cookie': 'session=abc; HttpOnly' } });
    const first = await provider.onRequest!(ctx('http://x/'), page.next);
    expect(first.headers.get('set-cookie')).toContain('session=abc');
    await provider.onRequest!(ctx('http://x/'), page.next);
    expect(page.renders()).toBe(2);
    expect(provider.store.size).toBe(0);
  });

  it('never stores a response with a cookie set through Astro.cookies (kept on the response, not yet a header)', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    const withCookie = async () => {
      const res = await page.next();
      Reflect.set(res, Symbol.for('astro.cookies'), { headers: function* () { yield 'flash=1'; } });
      return res;
    };
    await provider.onRequest!(ctx('http://x/'), withCookie);
    expect(provider.store.size).toBe(0);
  });

  it('never stores private paths, errors or responses that vary by visitor', async () => {
    const provider = createByteLimitedProvider();
    for (const path of ['/admin/seo', '/dashboard', '/auth', '/verify-email', '/api/prices']) {
      await provider.onRequest!(ctx(`http://x${path}`), renderer().next);
    }
    await provider.onRequest!(ctx('http://x/service/gone'), renderer({ status: 404 }).next);
    await provider.onRequest!(ctx('http://x/services'), renderer({ headers: { Vary: 'Cookie' } }).next);
    await provider.onRequest!(ctx('http://x/demos'), renderer({ headers: { 'Cache-Control': 'private, no-store' } }).next);
    expect(provider.store.size).toBe(0);
  });

  it('does not store pages that did not ask to be cached', async () => {
    const provider = createByteLimitedProvider();
    const next = async () => new Response('dynamic');
    await provider.onRequest!(ctx('http://x/free-audit'), next);
    expect(provider.store.size).toBe(0);
  });

  it('passes non-GET requests straight through without storing or answering them from the cache', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    await provider.onRequest!(ctx('http://x/services'), page.next);
    const post = await provider.onRequest!(ctx('http://x/services', 'POST'), page.next);
    expect(post.headers.get('X-Astro-Cache')).toBeNull();
    expect(await post.text()).toBe('render 2');
    const head = await provider.onRequest!(ctx('http://x/services', 'HEAD'), page.next);
    expect(head.headers.get('X-Astro-Cache')).toBeNull();
    expect(page.renders()).toBe(3);
  });

  it('drops the entries of an invalidated tag, and only those', async () => {
    const provider = createByteLimitedProvider();
    const services = renderer({ headers: { 'Cache-Tag': 'services, site' } });
    const articles = renderer({ headers: { 'Cache-Tag': 'articles, site' } });
    await provider.onRequest!(ctx('http://x/services'), services.next);
    await provider.onRequest!(ctx('http://x/articles'), articles.next);
    await provider.invalidate({ tags: ['services'] });
    await provider.onRequest!(ctx('http://x/services'), services.next);
    await provider.onRequest!(ctx('http://x/articles'), articles.next);
    expect(services.renders()).toBe(2);
    expect(articles.renders()).toBe(1);
    await provider.invalidate({ tags: 'site' });
    expect(provider.store.size).toBe(0);
  });

  it('stores a URL with a query the page reads only when it is asked for a second time', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    for (let i = 0; i < 50; i++) await provider.onRequest!(ctx(`http://x/articles?tag=t${i}`), page.next);
    expect(provider.store.size).toBe(0);
    await provider.onRequest!(ctx('http://x/articles?tag=ai'), page.next);
    expect(provider.store.size).toBe(0);
    await provider.onRequest!(ctx('http://x/articles?tag=ai'), page.next);
    const third = await provider.onRequest!(ctx('http://x/articles?tag=ai'), page.next);
    expect(third.headers.get('X-Astro-Cache')).toBe('HIT');
    expect(page.renders()).toBe(52);
  });

  it('does not store a render that an invalidation overtook (it may show the old content), nor one a clear overtook', async () => {
    const provider = createByteLimitedProvider();
    for (const drop of [() => provider.invalidate({ tags: ['faqs'] }), () => provider.clear()]) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const page = renderer();
      const slow = async () => {
        await gate;
        return page.next();
      };
      const rendering = provider.onRequest!(ctx('http://x/services'), slow);
      // Another process's write arrives while the render reads the content.
      await drop();
      release();
      expect((await rendering).headers.get('X-Astro-Cache')).toBe('MISS');
      expect(provider.store.get('/services')).toBeUndefined();
      // The next render is stored as usual.
      await provider.onRequest!(ctx('http://x/services'), page.next);
      expect(provider.store.get('/services')).toBeDefined();
      provider.clear();
    }
  });

  it('drops every query variant of an invalidated path', async () => {
    const provider = createByteLimitedProvider();
    await provider.onRequest!(ctx('http://x/articles?tag=ai'), renderer().next);
    await provider.onRequest!(ctx('http://x/articles?tag=ai'), renderer().next);
    await provider.onRequest!(ctx('http://x/articles'), renderer().next);
    await provider.onRequest!(ctx('http://x/article/a'), renderer().next);
    await provider.invalidate({ path: '/articles' });
    expect(provider.store.size).toBe(1);
  });
});

describe('shared-cache headers (a CDN or Varnish in front)', () => {
  const SHARED = /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/;

  it('mark a page every visitor gets for shared caches, with its tags, on the render and on the replay alike', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer({ headers: { 'Cache-Control': 'public, max-age=0, must-revalidate', 'Cache-Tag': 'services, site' } });
    const miss = await provider.onRequest!(ctx('http://x/services'), page.next);
    const hit = await provider.onRequest!(ctx('http://x/services'), page.next);
    expect(hit.headers.get('X-Astro-Cache')).toBe('HIT');
    for (const res of [miss, hit]) {
      expect(res.headers.get('Cache-Control')).toMatch(SHARED);
      expect(res.headers.get('Surrogate-Key')).toBe('services site');
      expect(res.headers.get('Cache-Tag')).toBe('services,site');
      expect(res.headers.get('CDN-Tag')).toBe('services,site');
    }
  });

  it('also mark a query page the route cache does not store yet (admission), so the CDN may', async () => {
    const provider = createByteLimitedProvider();
    const once = await provider.onRequest!(ctx('http://x/articles?tag=ai'), renderer().next);
    expect(once.headers.get('X-Astro-Cache')).toBe('MISS');
    expect(once.headers.get('Cache-Control')).toMatch(SHARED);
  });

  it('are never given to anything personal: private paths, cookies, errors, per-visitor responses, unmarked pages', async () => {
    const provider = createByteLimitedProvider();
    const answers: Response[] = [];
    for (const path of ['/admin/seo', '/dashboard', '/auth', '/verify-email', '/claim-admin', '/api/prices']) {
      answers.push(await provider.onRequest!(ctx(`http://x${path}`), renderer({ headers: { 'Cache-Control': 'private, no-store' } }).next));
    }
    answers.push(await provider.onRequest!(ctx('http://x/'), renderer({ headers: { 'Set-Cookie': 'session=abc' } }).next));
    answers.push(await provider.onRequest!(ctx('http://x/service/gone'), renderer({ status: 404 }).next));
    answers.push(await provider.onRequest!(ctx('http://x/services'), renderer({ status: 500 }).next));
    answers.push(await provider.onRequest!(ctx('http://x/services'), renderer({ headers: { Vary: 'Cookie' } }).next));
    answers.push(await provider.onRequest!(ctx('http://x/free-audit'), async () => new Response('dynamic')));
    for (const res of answers) {
      expect(res.headers.get('Cache-Control') ?? '').not.toMatch(/s-maxage|public/);
      expect(res.headers.get('Surrogate-Key')).toBeNull();
    }
  });
});

describe('cache key', () => {
  it('keeps only the parameters the page reads, in one order', () => {
    expect(cacheKey(new URL('http://x/articles?utm_source=a&page=2&tag=ai&fbclid=z'))).toBe('/articles?page=2&tag=ai');
    expect(cacheKey(new URL('http://x/articles?tag=ai&page=2&x=1'))).toBe('/articles?page=2&tag=ai');
    expect(cacheKey(new URL('http://x/free-audit?sent=1&ref=mail'))).toBe('/free-audit?sent=1');
    expect(cacheKey(new URL('http://x/?layout=hero&preview'))).toBe('/?layout=hero&preview=');
  });

  it('drops every parameter a page does not read: invented query strings are the page itself', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    await provider.onRequest!(ctx('http://x/'), page.next);
    for (let i = 0; i < 50; i++) expect((await provider.onRequest!(ctx(`http://x/?cachebuster=${i}`), page.next)).headers.get('X-Astro-Cache')).toBe('HIT');
    expect(page.renders()).toBe(1);
    expect(provider.store.size).toBe(1);

    expect(cacheKey(new URL('http://x/?utm_campaign=x'))).toBe('/');
    expect(cacheKey(new URL('http://x/?bench=1'))).toBe('/');
    expect(cacheKey(new URL('http://x/services?page=2&tag=ai&sent=1'))).toBe('/services');
    expect(cacheKey(new URL('http://x/article/a?layout=x'))).toBe('/article/a');
    expect(cacheKey(new URL('http://x/article/a?preview'))).toBe('/article/a?preview=');
  });

  it('never answers a query with a NUL from the clean page: the middleware refuses it with 400', async () => {
    const provider = createByteLimitedProvider();
    const page = renderer();
    await provider.onRequest!(ctx('http://x/services'), page.next);
    const refused = renderer({ status: 400, body: 'not text' });
    const res = await provider.onRequest!(ctx('http://x/services?x=a%00'), refused.next);
    expect(res.status).toBe(400);
    expect(refused.renders()).toBe(1);
  });

  it('does not key on the Host header: one site, one set of entries', () => {
    expect(cacheKey(new URL('http://evil.example/services'))).toBe(cacheKey(new URL('http://x/services')));
  });
});

describe('with the cache off (ROUTE_CACHE=false)', () => {
  it('renders every request and stores nothing, with the same shared-cache headers', async () => {
    const provider = createByteLimitedProvider(undefined, { stores: false });
    const page = renderer({ headers: { 'Cache-Control': 'public, max-age=0, must-revalidate', 'Cache-Tag': 'services, site' } });
    const first = await provider.onRequest!(ctx('http://x/services'), page.next);
    const second = await provider.onRequest!(ctx('http://x/services'), page.next);
    expect(await second.text()).toBe('render 2');
    expect(provider.store.size).toBe(0);
    for (const res of [first, second]) {
      expect(res.headers.get('X-Astro-Cache')).toBe('MISS');
      expect(res.headers.get('Surrogate-Key')).toBe('services site');
    }
  });
});

describe('fast path for server.mjs', () => {
  it('answers a stored page by request URL with its stored headers, and nothing else', async () => {
    const { registerFastPath, FAST_PATH_SYMBOL } = await import('../../src/server/cache/fast-path');
    const provider = createByteLimitedProvider();
    registerFastPath(provider.store, cacheKey);
    const lookup = Reflect.get(globalThis, FAST_PATH_SYMBOL) as (url: string) => { status: number; headers: [string, string][]; body: Uint8Array } | undefined;
    expect(lookup('/services')).toBeUndefined();
    await provider.onRequest!(ctx('http://x/services'), renderer().next);
    const hit = lookup('/services?utm_source=newsletter');
    expect(hit?.status).toBe(200);
    expect(new TextDecoder().decode(hit!.body)).toBe('render 1');
    const names = hit!.headers.map(([k]) => k.toLowerCase());
    expect(names).toContain('content-security-policy');
    // This cache's own steering header stays here; the CDN's purge tags go out on hits too.
    expect(names).not.toContain('cdn-cache-control');
    expect(names).toEqual(expect.arrayContaining(['surrogate-key', 'cache-tag', 'cdn-tag']));
    expect(lookup('/services?page=2')).toBeDefined();
    expect(lookup('/services?x=a%00')).toBeUndefined();
    expect(lookup('/services?utm_medium=email')).toBeDefined();
    expect(lookup('/articles')).toBeUndefined();
    await provider.invalidate({ tags: ['services'] });
    expect(lookup('/services')).toBeUndefined();
  });
});
