/**
 * What the safe fetch refuses before a byte is sent (decision 018): schemes, credentials in the URL,
 * origins the caller did not allow, and hosts that are or resolve to loopback, private, link-local or
 * metadata addresses, however the address is spelled. DNS is a stand-in here: nothing leaves the machine.
 */
import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SafeFetchError, safeFetch, useTestNetwork } from '../../src/server/http/safe-fetch';

afterEach(() => vi.restoreAllMocks());

async function refusal(url: string, init?: Parameters<typeof safeFetch>[1]): Promise<SafeFetchError> {
  const err = await safeFetch(url, init).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}

/** DNS answers for the names the tests use; a name not listed fails as unknown. */
function fakeDns(answers: Record<string, string[]>) {
  return vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as unknown as typeof dns.promises.lookup);
}

describe('addresses typed into the URL', () => {
  it.each([
    // Loopback in every spelling a URL parser accepts.
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.000.000.001/', 'loopback'],
    ['https://[::1]:8443/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://0.0.0.0:4321/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    // Cloud metadata and link-local.
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://2852039166/', 'link-local'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    // Private networks.
    ['http://10.0.0.1/', 'private'],
    ['http://012.0.0.1/', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://[fd00::1]/', 'unique-local'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://224.0.0.1/', 'multicast'],
  ])('%s is refused (%s)', async (url, words) => {
    const lookup = fakeDns({});
    const err = await refusal(url);
    expect(err.code).toBe('address-not-allowed');
    expect(err.message).toContain(words);
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('host names', () => {
  it.each([
    ['internal.example', ['10.1.2.3'], 'private'],
    ['metadata.example', ['169.254.169.254'], 'link-local'],
    ['mapped.example', ['::ffff:127.0.0.1'], 'loopback'],
    ['v6.example', ['fd00::5'], 'unique-local'],
    // One inside answer is enough: the connection could pick it.
    ['mixed.example', ['93.184.216.34', '10.0.0.5'], 'private'],
    ['mixed6.example', ['2606:4700:4700::1111', '::1'], 'loopback'],
  ])('%s resolving to %j is refused', async (host, answers, words) => {
    fakeDns({ [host]: answers });
    const err = await refusal(`https://${host}/hook`);
    expect(err.code).toBe('address-not-allowed');
    expect(err.message).toContain(host);
    expect(err.message).toContain(words);
  });

  it('localhost is refused through the real resolver', async () => {
    expect((await refusal('http://localhost:4321/')).code).toBe('address-not-allowed');
  });

  it('a name that does not resolve fails with our words, the resolver\'s error only as the cause', async () => {
    fakeDns({});
    const err = await refusal('https://nowhere.example/');
    expect(err).toMatchObject({ code: 'dns-failed', message: 'The host name nowhere.example could not be resolved' });
    expect(String((err.cause as Error).message)).toContain('ENOTFOUND');
  });
});

describe('what the URL may be', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com:70/', 'data:text/plain,hi', 'javascript:alert(1)', 'ws://example.com/'])('%s: another scheme', async (url) => {
    expect((await refusal(url)).code).toBe('scheme-not-allowed');
  });

  it('https only when the caller says so', async () => {
    expect(await refusal('http://example.com/', { protocols: ['https:'] })).toMatchObject({ code: 'scheme-not-allowed', message: 'Only https addresses may be fetched, not http' });
  });

  it.each(['not a url', '/relative/path', 'https://user:secret@example.com/', 'https://token@example.com/'])('%s: not a plain absolute URL', async (url) => {
    const err = await refusal(url);
    expect(err.code).toBe('invalid-url');
    expect(err.message).not.toContain('secret');
  });

  it('only the origins the caller allows, before any lookup', async () => {
    const lookup = fakeDns({ 'api.example.com': ['93.184.216.34'] });
    const allowedOrigins = ['https://api.example.com'];
    for (const url of ['https://evil.example/v1', 'http://api.example.com/v1', 'https://api.example.com:8443/v1', 'https://api.example.com.evil.example/v1']) {
      expect((await refusal(url, { allowedOrigins })).code, url).toBe('origin-not-allowed');
    }
    expect(lookup).not.toHaveBeenCalled();
  });
});

describe('the test network', () => {
  it('refuses outside tests and points names only at loopback', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(() => useTestNetwork({ hosts: { 'llm.test': '127.0.0.1' } })).toThrow(/tests only/);
    vi.unstubAllEnvs();
    expect(() => useTestNetwork({ hosts: { 'llm.test': '10.0.0.1' } })).toThrow(/loopback/);
    useTestNetwork(undefined);
  });

  it('leaves addresses typed into the URL to the production rules', async () => {
    useTestNetwork({ hosts: { 'llm.test': '127.0.0.1' } });
    try {
      expect((await refusal('https://127.0.0.1:1/')).code).toBe('address-not-allowed');
      expect((await refusal('https://localhost:1/')).code).toBe('address-not-allowed');
    } finally {
      useTestNetwork(undefined);
    }
  });
});
