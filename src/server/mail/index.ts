/** The process-wide mailer, from SMTP_URL / MAIL_FROM / DATA_DIR. */
import path from 'node:path';
import { config } from '../config';
import { logger } from '../logger';
import { getSiteContent } from '../modules/site/service';
import { defaultSenderAddress, mailbox } from '../../shared/mail-address';
import { isLocalSiteUrl } from './local-site';
import { createMailer, type Mailer } from './transport';

export { createMailer, type Mailer } from './transport';
export * from './templates';

let mailer: Mailer | undefined;

/** The From every mail carries: MAIL_FROM, else the business's name (its site texts) at no-reply of the site's host. */
export async function senderMailbox(): Promise<string> {
  const cfg = config();
  return cfg.MAIL_FROM ?? mailbox((await getSiteContent()).siteName, defaultSenderAddress(cfg.SITE_URL));
}

export function getMailer(): Mailer {
  if (!mailer) {
    const cfg = config();
    mailer = createMailer({
      // Read when each mail goes out: unset MAIL_FROM, the sender is named as the business is in the site texts.
      from: cfg.MAIL_FROM ?? senderMailbox,
      smtpUrl: cfg.SMTP_URL,
      outboxDir: path.join(cfg.dataDir, 'outbox'),
      logger: logger.child({ module: 'mail' }),
      // SITE_URL as configured or as PORT and HOST give it: unset with a loopback or wildcard HOST is local.
      logLinks: isLocalSiteUrl(cfg.SITE_URL),
    });
  }
  return mailer;
}
