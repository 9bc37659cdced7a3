/**
 * What sells, per person (issue 35): the business, phone and website they gave, their latest website-check
 * score and where their report stands. The leads list, the person's page and the audit list show it the same
 * way, from these rules (pure: the pages and their tests share them).
 */

/** Where a request's (or a person's newest) report stands. */
export const REPORT_STATES = ['waiting', 'sent', 'opened'] as const;
export type ReportState = (typeof REPORT_STATES)[number];

export const REPORT_STATE_LABELS: Record<ReportState, string> = {
  waiting: 'Report not sent',
  sent: 'Report sent',
  opened: 'Report opened',
};

export const isReportState = (v: unknown): v is ReportState => typeof v === 'string' && (REPORT_STATES as readonly string[]).includes(v);

/** Opened once its newest report was opened; sent once one was sent; else waiting for one. */
export const reportStateOf = (sentAt: Date | null, openedAt: Date | null): ReportState => (openedAt ? 'opened' : sentAt ? 'sent' : 'waiting');

const badge = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset';

/** Badge colours (text on background pass WCAG AA): the report the owner still owes stands out. */
export const reportStateBadgeClass = (state: ReportState) =>
  `${badge} ${state === 'waiting' ? 'bg-amber-50 text-amber-900 ring-amber-200' : state === 'sent' ? 'bg-sky-50 text-sky-800 ring-sky-200' : 'bg-emerald-50 text-emerald-800 ring-emerald-200'}`;

/**
 * A website-check score as a badge, coloured as the report colours it (80 and up good, 50 and up fair,
 * below that poor): the worst sites are the hottest prospects.
 */
export const scoreBadgeClass = (score: number) =>
  `${badge} tabular-nums ${score >= 80 ? 'bg-emerald-50 text-emerald-800 ring-emerald-200' : score >= 50 ? 'bg-amber-50 text-amber-900 ring-amber-200' : 'bg-red-50 text-red-800 ring-red-200'}`;

/** "https://www.clinic.example/home" → "clinic.example/home": an address as a person reads it in a list. */
export function websiteLabel(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
    return `${u.hostname.replace(/^www\./, '')}${path}`;
  } catch {
    return url;
  }
}

/** A phone number as a tel: link (digits and a leading +), or undefined when it has no digits to dial. */
export function telHref(phone: string): string | undefined {
  const dial = phone.trim().replace(/(?!^\+)[^\d]/g, '');
  return /\d{3,}/.test(dial) ? `tel:${dial}` : undefined;
}
