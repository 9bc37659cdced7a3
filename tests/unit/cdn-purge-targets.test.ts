import { describe, expect, it } from 'vitest';
import { purgeRequests, purgeTargetFrom } from '../../src/server/cdn/purge-targets';
import { ConfigError, parseConfig } from '../../src/server/config';

describe('CDN purge settings', () => {
  it('are off unless CDN_PURGE is set, and shared-cache lifetimes default to the route cache’s', () => {
    const cfg = parseConfig({});
    expect(purgeTargetFrom(cfg)).toBeUndefined();
    expect(cfg.CDN_MAX_AGE_SECONDS).toBe(300);
    expect(cfg.CDN_STALE_SECONDS).toBe(60);
    expect(parseConfig({ CDN_PURGE: '' }).CDN_PURGE).toBeUndefined();
  });

  it('name what each target still needs', () => {
    expect(() => parseConfig({ CDN_PURGE: 'cloudflare' })).toThrow(/CDN_PURGE_ZONE: is required when CDN_PURGE=cloudflare[\s\S]*CDN_PURGE_TOKEN/);
    expect(() => parseConfig({ CDN_PURGE: 'varnish' })).toThrow(/CDN_PURGE_URL: is required when CDN_PURGE=varnish/);
    expect(() => parseConfig({ CDN_PURGE: 'akamai' })).toThrow(ConfigError);
    expect(() => parseConfig({ CDN_PURGE: 'fastly', CDN_PURGE_ZONE: 'a/b', CDN_PURGE_TOKEN: 't' })).toThrow(/CDN_PURGE_ZONE: must be/);
    expect(() => parseConfig({ CDN_MAX_AGE_SECONDS: '-1' })).toThrow(/CDN_MAX_AGE_SECONDS/);
  });

  it('give a complete target', () => {
    expect(purgeTargetFrom(parseConfig({ CDN_PURGE: 'varnish', CDN_PURGE_URL: 'http://127.0.0.1:6081/' }))).toEqual({ kind: 'varnish', url: 'http://127.0.0.1:6081/' });
    expect(purgeTargetFrom(parseConfig({ CDN_PURGE: 'bunny', CDN_PURGE_ZONE: '12345', CDN_PURGE_TOKEN: 'key' }))).toEqual({ kind: 'bunny', zone: '12345', token: 'key' });
  });
});

describe('purge requests', () => {
  const tags = ['faqs', 'landing', 'site'];

  it('Cloudflare: purge by Cache-Tag with a bearer API token, at most 30 tags a call', () => {
    const [req, ...rest] = purgeRequests({ kind: 'cloudflare', zone: 'zone1', token: 'tok' }, tags);
    expect(rest).toEqual([]);
    expect(req).toMatchObject({ url: 'https://api.cloudflare.com/client/v4/zones/zone1/purge_cache', method: 'POST' });
    expect(req!.headers.Authorization).toBe('Bearer tok');
    expect(JSON.parse(req!.body!)).toEqual({ tags });
    const many = Array.from({ length: 31 }, (_, i) => `t${i}`);
    expect(purgeRequests({ kind: 'cloudflare', zone: 'z', token: 't' }, many)).toHaveLength(2);
  });

  it('Fastly: one surrogate-key purge of the service', () => {
    const [req] = purgeRequests({ kind: 'fastly', zone: 'svc', token: 'tok' }, tags);
    expect(req).toMatchObject({ url: 'https://api.fastly.com/service/svc/purge', method: 'POST' });
    expect(req!.headers['Fastly-Key']).toBe('tok');
    expect(req!.headers['Surrogate-Key']).toBe('faqs landing site');
  });

  it('Bunny: the pull zone purged by CDN-Tag, one tag a call', () => {
    const reqs = purgeRequests({ kind: 'bunny', zone: '42', token: 'key' }, tags);
    expect(reqs.map((r) => JSON.parse(r.body!).CacheTag)).toEqual(tags);
    expect(reqs[0]).toMatchObject({ url: 'https://api.bunny.net/pullzone/42/purgeCache', method: 'POST' });
    expect(reqs[0]!.headers.AccessKey).toBe('key');
  });

  it('Varnish: one PURGE with the tags in Surrogate-Key', () => {
    expect(purgeRequests({ kind: 'varnish', url: 'http://127.0.0.1:6081/' }, tags)).toEqual([
      { url: 'http://127.0.0.1:6081/', method: 'PURGE', headers: { 'Surrogate-Key': 'faqs landing site' } },
    ]);
  });

  it('nothing to send without tags', () => {
    expect(purgeRequests({ kind: 'fastly', zone: 'svc', token: 'tok' }, [])).toEqual([]);
  });
});
