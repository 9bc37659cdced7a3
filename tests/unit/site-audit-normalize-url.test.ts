/**
 * The website address a requester types, made into the URL the audit crawls, or refused with a message
 * they can act on (issue 22).
 */
import { describe, expect, it } from 'vitest';
import { normalizeAuditUrl } from '../../src/server/modules/site-audit/normalize-url';

const accepted = (input: string) => {
  const result = normalizeAuditUrl(input);
  expect(result.ok, `${input} should be accepted`).toBe(true);
  return result.ok ? result.url : '';
};
const refused = (input: string) => {
  const result = normalizeAuditUrl(input);
  expect(result.ok, `${input} should be refused`).toBe(false);
  return result.ok ? '' : result.message;
};

describe('accepted addresses', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  www.example.com/path?x=1  ', 'https://www.example.com/path?x=1'],
    ['example.com:8080/shop', 'https://example.com:8080/shop'],
    ['//example.com/', 'https://example.com/'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://WWW.Example.COM/About', 'https://www.example.com/About'],
    ['https://example.com/#contact', 'https://example.com/'],
    ['good.test', 'https://good.test/'],
    ['https://93.184.216.34/', 'https://93.184.216.34/'],
    ['http://[2606:2800:220:1::]/', 'http://[2606:2800:220:1::]/'],
  ])('%j → %s', (input, url) => {
    expect(accepted(input)).toBe(url);
  });

  it('writes an international domain in punycode', () => {
    expect(accepted('bücher.example')).toBe('https://xn--bcher-kva.example/');
    expect(accepted('https://münchen.example/straße')).toBe('https://xn--mnchen-3ya.example/stra%C3%9Fe');
  });

  it('leaves inside addresses to the crawl, which refuses them when it runs', () => {
    expect(accepted('127.0.0.1')).toBe('https://127.0.0.1/');
  });
});

describe('refused addresses', () => {
  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['JavaScript://%0aalert(1)', 'javascript'],
    ['file:///etc/passwd', 'file'],
    ['ftp://example.com/file.txt', 'ftp'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['mailto:owner@example.com', 'mailto'],
  ])('%j: not a web address', (input, scheme) => {
    expect(refused(input)).toBe(`Only website addresses (http:// or https://) can be audited, not a "${scheme}:" address. Enter it like example.com or https://www.example.com.`);
  });

  it('with a user name or password', () => {
    expect(refused('https://admin:secret@example.com/')).toBe('Remove the user name and password from the address: the audit only looks at public pages.');
    expect(refused('user@example.com')).toContain('user name and password');
  });

  it.each(['', '   ', '\n'])('empty (%j)', (input) => {
    expect(refused(input)).toBe("Enter the website's address. Enter it like example.com or https://www.example.com.");
  });

  it.each(['localhost', 'intranet', 'https://server/', 'example', 'localhost:3000'])('%j: a host without a dot', (input) => {
    expect(refused(input)).toMatch(/is not a website's host name\. Enter it like example\.com/);
  });

  it.each(['http://', 'https://exa mple.com', 'not a website', 'http://ex%ample.com', 'example..com', '.com', 'example.123'])('%j: not an address', (input) => {
    expect(refused(input)).toMatch(/(does not look like a website address|is not a website's host name)\. Enter it like example\.com/);
  });

  it('too long', () => {
    expect(refused(`example.com/${'a'.repeat(2100)}`)).toContain('longer than 2048 characters');
  });
});
