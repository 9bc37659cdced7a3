import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import { createMailer, verificationEmail } from '../../src/server/mail';
import { isLocalSiteUrl } from '../../src/server/mail/local-site';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A mailer writing to the outbox of a fresh data folder, with its log lines kept for the test. */
function outboxMailer(options: { logLinks?: boolean } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-test-'));
  dirs.push(dataDir);
  const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  const mailer = createMailer({
    from: 'Agency <no-reply@example.test>',
    outboxDir: path.join(dataDir, 'outbox'),
    logger: { info: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) },
    ...options,
  });
  return { dataDir, lines, mailer };
}

describe('mail without SMTP_URL', () => {
  it('writes each message as an .eml file in the outbox and, on a local site, logs its links', async () => {
    const { dataDir, lines, mailer } = outboxMailer({ logLinks: true });
    expect(mailer.mode).toBe('outbox');

    const url = 'http://localhost:4321/api/auth/verify-email?token=abc.def.ghi&callbackURL=%2Fverify-email';
    await mailer.send(verificationEmail({ email: 'new@example.com', name: 'New Member' }, url, 'Test Agency'));

    const files = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = path.join(dataDir, 'outbox', files[0]!);
    // Owner-only: the messages hold live sign-in links.
    expect(fs.statSync(path.join(dataDir, 'outbox')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const eml = fs.readFileSync(file, 'utf8');
    expect(eml).toMatch(/^From: Agency <no-reply@example\.test>\r$/m);
    expect(eml).toMatch(/^To: new@example\.com\r$/m);
    expect(eml).toMatch(/^Subject: Confirm your email for Test Agency\r$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(eml.replace(/=\r\n/g, '').replace(/=3D/g, '=')).toContain(url);

    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toContain(url);
    expect(lines[0]!.obj).toMatchObject({ to: 'new@example.com', links: [url], file });
  });

  it('on a deployed site logs the outbox file name, never a link (logs are kept less carefully than DATA_DIR)', async () => {
    const { dataDir, lines, mailer } = outboxMailer();
    const url = 'https://agency.example/api/auth/reset-password/abc.def?callbackURL=%2Fauth%2Freset-password';
    await mailer.send(verificationEmail({ email: 'new@example.com' }, url, 'Test Agency'));

    const [file] = fs.readdirSync(path.join(dataDir, 'outbox'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe(`mail written to the outbox (no SMTP_URL): ${file}`);
    expect(JSON.stringify(lines[0])).not.toContain('abc.def');
    expect(lines[0]!.obj).not.toHaveProperty('links');
    // The link is still in the file, for whoever can read DATA_DIR.
    expect(fs.readFileSync(path.join(dataDir, 'outbox', file!), 'utf8')).toContain('abc.def');
  });
});

describe('isLocalSiteUrl: when the outbox log may print links', () => {
  it('a newcomer trying the site: unset, localhost, 127.0.0.0/8, ::1', () => {
    for (const url of [undefined, '', 'http://localhost:4321', 'http://LOCALHOST', 'http://app.localhost:8080', 'http://127.0.0.1:4321', 'http://127.8.9.10', 'http://127.1', 'http://[::1]:4321', 'http://[0:0:0:0:0:0:0:1]']) {
      expect(isLocalSiteUrl(url), String(url)).toBe(true);
    }
  });

  it('any other address or name is a deployed site', () => {
    for (const url of ['https://agency.example', 'http://10.0.0.5:4321', 'http://192.168.1.2', 'http://[::ffff:7f00:1]', 'http://[fe80::1]', 'http://localhost.example.com', 'http://128.0.0.1', 'not a url']) {
      expect(isLocalSiteUrl(url), url).toBe(false);
    }
  });

  it('SITE_URL unset follows HOST: loopback and wildcard are local, a public HOST is not', () => {
    expect(isLocalSiteUrl(parseConfig({}).SITE_URL)).toBe(true);
    expect(isLocalSiteUrl(parseConfig({ HOST: '0.0.0.0' }).SITE_URL)).toBe(true);
    expect(isLocalSiteUrl(parseConfig({ HOST: 'agency.example' }).SITE_URL)).toBe(false);
    expect(isLocalSiteUrl(parseConfig({ SITE_URL: 'https://agency.example' }).SITE_URL)).toBe(false);
  });
});
