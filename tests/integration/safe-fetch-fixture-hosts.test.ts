/**
 * The safe fetch's port rule (`allowedPorts`), its redirect reporting (`onRedirect`, `redirect: 'manual'`)
 * and the fixture hosts a production build under test may use (`useFixtureHosts`): only `.test` names, any
 * NODE_ENV, any port, their certificate trusted for them alone, and every other name and address still
 * under the production rules. DNS is a stand-in: nothing leaves the machine.
 */
import dns from 'node:dns';
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { safeFetch, useFixtureHosts, useTestNetwork, type RedirectAnswer } from '../../src/server/http/safe-fetch';
import { safeFetchFailure as failure, standInCertificate, startStandIn, type StandInServer } from '../support/stand-in-https';

let plain: StandInServer;
let secure: StandInServer;

function route(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
  else res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.headers.host}`);
}

beforeAll(async () => {
  plain = await startStandIn(route, { plain: true });
  secure = await startStandIn(route);
});
afterAll(async () => {
  await plain.close();
  await secure.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  useFixtureHosts([]);
  useTestNetwork(undefined);
});

/** DNS for the names listed; any other name is unknown. */
function fakeDns(answers: Record<string, string>) {
  return vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string) => {
    const address = answers[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  }) as unknown as typeof dns.promises.lookup);
}

const plainAt = (host: string, path = '/') => `http://${host}:${plain.port}${path}`;

describe('allowedPorts', () => {
  it('refuses an address on another port, before connecting', async () => {
    const lookup = fakeDns({ 'shop.example': '93.184.216.34' });
    const err = await failure(safeFetch('http://shop.example:8080/', { allowedPorts: [80, 443] }));
    expect(err).toMatchObject({ code: 'port-not-allowed', message: 'Port 8080 of shop.example may not be asked: this request only goes to ports 80 and 443' });
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('counts the scheme’s default port: https is 443', async () => {
    const err = await failure(safeFetch('https://93.184.216.34/', { allowedPorts: [80] }));
    expect(err).toMatchObject({ code: 'port-not-allowed', message: 'Port 443 of 93.184.216.34 may not be asked: this request only goes to port 80' });
  });

  it('refuses a redirect to another port, and reports the hop that sent it there', async () => {
    fakeDns({ 'shop.example': '93.184.216.34' });
    useFixtureHosts(['site.test']);
    const hops: RedirectAnswer[] = [];
    const err = await failure(safeFetch(plainAt('site.test', '/redirect?to=http://shop.example:8443/'), { allowedPorts: [80, 443], onRedirect: (hop) => hops.push(hop) }));
    expect(err.code).toBe('port-not-allowed');
    expect(hops).toEqual([{ url: plainAt('site.test', '/redirect?to=http://shop.example:8443/'), status: 302, location: 'http://shop.example:8443/' }]);
  });

  it('reports a redirect to an address that is not a valid URL, with the Location as the server wrote it', async () => {
    useFixtureHosts(['site.test']);
    const hops: RedirectAnswer[] = [];
    const err = await failure(safeFetch(plainAt('site.test', `/redirect?to=${encodeURIComponent('http://[::1')}`), { onRedirect: (hop) => hops.push(hop) }));
    expect(err).toMatchObject({ code: 'invalid-url', message: 'The server redirected to an address that is not a valid URL' });
    expect(hops).toEqual([{ url: plainAt('site.test', `/redirect?to=${encodeURIComponent('http://[::1')}`), status: 302, location: 'http://[::1' }]);
  });

  it('still refuses an inside address first: a redirect to 127.0.0.1:PORT is about the address', async () => {
    useFixtureHosts(['site.test']);
    const err = await failure(safeFetch(plainAt('site.test', `/redirect?to=http://127.0.0.1:${plain.port}/`), { allowedPorts: [80, 443] }));
    expect(err.code).toBe('address-not-allowed');
  });

  it('lets the test network’s stand-ins use their random ports', async () => {
    useTestNetwork({ hosts: { 'llm.test': '127.0.0.1' } });
    const res = await safeFetch(plainAt('llm.test'), { allowedPorts: [443] });
    expect(await res.text()).toBe(`hello from llm.test:${plain.port}`);
  });
});

describe('redirect: manual', () => {
  it('hands back the redirect itself, its Location unfollowed', async () => {
    useFixtureHosts(['site.test']);
    const res = await safeFetch(plainAt('site.test', '/redirect?to=https://site.test/'), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://site.test/');
  });
});

describe('useFixtureHosts', () => {
  it.each(['example.com', 'good.test.example.com', 'localhost', 'test', '.test', 'good.test.', 'bad_name.test', '127.0.0.1', ''])('refuses %j: only names under .test', (name) => {
    expect(() => useFixtureHosts(['good.test', name])).toThrow(/must be names ending in \.test/);
  });

  it('works in a production build, on any port, even when allowedPorts is set', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    useFixtureHosts(['Good.Test']);
    const res = await safeFetch(plainAt('good.test'), { allowedPorts: [80, 443] });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`hello from good.test:${plain.port}`);
  });

  it('leaves every other name and address to the production rules', async () => {
    fakeDns({ 'public.example': '93.184.216.34' });
    useFixtureHosts(['good.test']);
    expect(await failure(safeFetch(plainAt('other.test')))).toMatchObject({ code: 'dns-failed', message: 'The host name other.test could not be resolved' });
    expect((await failure(safeFetch(plainAt('public.example'), { allowedPorts: [80, 443] }))).code).toBe('port-not-allowed');
    expect((await failure(safeFetch(plainAt('127.0.0.1')))).code).toBe('address-not-allowed');
  });

  it('trusts the fixture certificate for the fixture names alone', async () => {
    const { cert } = await standInCertificate();
    useFixtureHosts(['llm.test'], { ca: cert });
    expect(await (await safeFetch(`https://llm.test:${secure.port}/`)).text()).toBe(`hello from llm.test:${secure.port}`);
    // other.test is on the same certificate, but reached through the test network without its CA.
    useTestNetwork({ hosts: { 'other.test': '127.0.0.1' } });
    expect((await failure(safeFetch(`https://other.test:${secure.port}/`))).code).toBe('tls-failed');
  });

  it('is cleared by an empty list', async () => {
    fakeDns({});
    useFixtureHosts(['good.test']);
    useFixtureHosts([]);
    expect((await failure(safeFetch(plainAt('good.test')))).code).toBe('dns-failed');
  });
});
