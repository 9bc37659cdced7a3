import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, verificationEmail } from '../../src/server/mail';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('mail without SMTP_URL', () => {
  it('writes each message as an .eml file in the outbox and logs its links', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-test-'));
    dirs.push(dataDir);
    const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
    const mailer = createMailer({
      from: 'Agency <no-reply@example.test>',
      outboxDir: path.join(dataDir, 'outbox'),
      logger: { info: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) },
    });
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
});
