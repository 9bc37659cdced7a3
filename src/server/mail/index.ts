/** The process-wide mailer, from SMTP_URL / MAIL_FROM / DATA_DIR. */
import path from 'node:path';
import { config } from '../config';
import { logger } from '../logger';
import { isLocalSiteUrl } from './local-site';
import { createMailer, type Mailer } from './transport';

export { createMailer, type Mailer } from './transport';
export * from './templates';

let mailer: Mailer | undefined;

export function getMailer(): Mailer {
  if (!mailer) {
    const cfg = config();
    mailer = createMailer({
      from: cfg.MAIL_FROM,
      smtpUrl: cfg.SMTP_URL,
      outboxDir: path.join(cfg.dataDir, 'outbox'),
      logger: logger.child({ module: 'mail' }),
      // SITE_URL as configured or as PORT and HOST give it: unset with a loopback or wildcard HOST is local.
      logLinks: isLocalSiteUrl(cfg.SITE_URL),
    });
  }
  return mailer;
}
