/**
 * Sending mail. With SMTP_URL: nodemailer over SMTP. Without: each message is rendered by nodemailer's
 * stream transport into an RFC 822 .eml file in DATA_DIR/outbox/, so a fresh install can verify accounts
 * and reset passwords with no mail server. Its links are logged only on a local site (logLinks): logs are
 * shipped and kept less carefully than DATA_DIR, and a live reset link in them is a takeover.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from '../data-dir';
import type { MailMessage } from './templates';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** The From header, or how to make it when each message is sent (the site's name follows its texts). */
  from: string | (() => Promise<string>);
  smtpUrl?: string | undefined;
  outboxDir: string;
  logger: MailLogger;
  /** Print the links of outbox mail in the log line (a newcomer's local site only; see isLocalSiteUrl). */
  logLinks?: boolean;
}

const linksIn = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

export function createMailer({ from: fromOption, smtpUrl, outboxDir, logger, logLinks = false }: MailerOptions): Mailer {
  const sender = typeof fromOption === 'string' ? () => Promise.resolve(fromOption) : fromOption;
  if (smtpUrl) {
    // Auth links are time-limited: fail fast rather than hang a sign-up request on an unreachable server.
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as SMTPTransport.Options);
    return {
      mode: 'smtp',
      async send(message) {
        await transport.sendMail({ from: await sender(), ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }

  const renderer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await renderer.sendMail({ from: await sender(), ...message });
      await fs.mkdir(outboxDir, { recursive: true, mode: OWNER_ONLY_DIR });
      const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
      // Owner-only: the file holds live sign-in links.
      await fs.writeFile(file, info.message as Buffer, { mode: OWNER_ONLY_FILE });
      if (logLinks) {
        const links = linksIn(message.text);
        logger.info({ to: message.to, subject: message.subject, file, links }, `mail written to the outbox (no SMTP_URL): ${links.join(' ')}`);
      } else {
        logger.info({ to: message.to, subject: message.subject, file }, `mail written to the outbox (no SMTP_URL): ${path.basename(file)}`);
      }
    },
  };
}
