/**
 * The email that carries a report's private link. The address was typed by whoever sent the request and
 * nobody confirmed it, so the mail holds only the site's own words and links: no name, business or website
 * the requester typed (the report page shows those, behind the link, after an admin read them).
 */
import { compose, type MailMessage } from '../../mail/templates';
import { formatWithZoneName } from '../../../shared/dates';

export function auditReportEmail(to: string, report: { url: string; expiresAt: Date; bookingUrl: string; siteName: string; timeZone: string }): MailMessage {
  const expires = formatWithZoneName(report.expiresAt, report.timeZone);
  return compose(
    { email: to },
    `Your website audit is ready — ${report.siteName}`,
    [
      `The free online presence audit you asked ${report.siteName} for is ready: what we checked on your website, what works, and what to fix first, with our notes.`,
      `The link below is private to you and works until ${expires}. Anyone you forward it to can read the report.`,
      'Want to go through it together? Book a free call at a time that suits you.',
    ],
    [
      { label: 'Read your audit', url: report.url },
      { label: 'Book a call', url: report.bookingUrl },
    ],
  );
}
