/** The process-wide mailer, from SMTP_URL / MAIL_FROM / DATA_DIR. */
import path from 'node:path';
import { config } from '../config';
import { logger } from '../logger';
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
    });
  }
  return mailer;
}
