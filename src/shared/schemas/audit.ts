/**
 * The free audit (PRODUCT.md "Free audit"): the request form's rules, shared by the /free-audit island
 * (inline validation), the page's no-script form post and the JSON endpoint, plus the admin list's URL
 * state. Pure: no server imports.
 */
import { emailField, phoneField, sanitizeSitePath, websiteField } from '../auth-schemas';
import { cleanLine, isCleanLine, isCleanText } from '../text-controls';
import { publicRouteOf } from '../site-routes';
import { safeUtm } from '../utm';
import { z } from '../zod';
import { isReportState, REPORT_STATES, type ReportState } from '../lead-profile';
import { isLeadStage, type LeadStage } from './lead-work';

export const AUDIT_LIMITS = {
  fullName: 100,
  businessName: 150,
  message: 2000,
  note: 5000,
  search: 200,
  referrer: 2048,
} as const;

export const BUSINESS_TYPES = ['clinic', 'coach', 'other'] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];
export const BUSINESS_TYPE_LABELS: Record<BusinessType, string> = {
  clinic: 'Clinic',
  coach: 'Coach or consultant',
  other: 'Other',
};

export const AUDIT_GOALS = ['more-leads', 'nurturing', 'appointment-reminders', 'lead-capture-funnel'] as const;
export type AuditGoal = (typeof AUDIT_GOALS)[number];
export const AUDIT_GOAL_LABELS: Record<AuditGoal, string> = {
  'more-leads': 'More leads',
  nurturing: 'Nurturing',
  'appointment-reminders': 'Appointment reminders',
  'lead-capture-funnel': 'Lead-capture funnel',
};

/**
 * The statuses a request had of its own before issue 35 (one person, one stage, one owner: a request now
 * shows the person's stage and its report's state). Kept to read the activity log's older entries.
 */
export const AUDIT_STATUSES = ['new', 'in-progress', 'report-sent', 'closed'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];
export const AUDIT_STATUS_LABELS: Record<AuditStatus, string> = {
  new: 'New',
  'in-progress': 'In progress',
  'report-sent': 'Report sent',
  closed: 'Closed',
};
/** Badge colours by status (text and background pass WCAG AA contrast). */
export const AUDIT_STATUS_BADGE: Record<AuditStatus, string> = {
  new: 'bg-brand-50 text-brand-800 ring-brand-200',
  'in-progress': 'bg-amber-50 text-amber-900 ring-amber-200',
  'report-sent': 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  closed: 'bg-slate-100 text-slate-700 ring-slate-200',
};
export const auditStatusBadgeClass = (status: string) =>
  `inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${AUDIT_STATUS_BADGE[status as AuditStatus] ?? AUDIT_STATUS_BADGE.closed}`;
export const auditStatusLabel = (status: string) => AUDIT_STATUS_LABELS[status as AuditStatus] ?? status;


/** What happens after a request: the thank-you state and the confirmation email say the same. */
export const AUDIT_NEXT_STEPS = [
  'We review your website, your listings and how you follow up with enquiries.',
  'Within two business days you receive your audit report by email, with what to fix first.',
  'If it helps, we suggest a short call to walk you through it. There is no obligation.',
] as const;

/** The hidden field a person never sees or fills; a bot that fills it is answered as if accepted. */
export const HONEYPOT_FIELD = 'faxNumber';

/** The hidden inputs that carry where the visitor came from (filled by the UTM capture script). */
export const ATTRIBUTION_FIELDS = {
  sourcePage: 'sourcePage',
  referrer: 'referrer',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
} as const;
export type AttributionKey = keyof typeof ATTRIBUTION_FIELDS;
export type AuditAttribution = Partial<Record<AttributionKey, string>>;

const singleLine = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required`, abort: true })
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true })
    // Control characters and bidi controls (src/shared/text-controls.ts): invisible on screen, dangerous in mail headers and logs.
    .refine(isCleanLine, `${label} contains characters that are not allowed`);

export const auditRequestSchema = z.object({
  fullName: singleLine('Full name', AUDIT_LIMITS.fullName),
  email: emailField,
  businessName: singleLine('Business name', AUDIT_LIMITS.businessName),
  website: websiteField,
  phone: phoneField,
  businessType: z.enum(BUSINESS_TYPES, { error: 'Please choose your type of business' }),
  goals: z
    .array(z.enum(AUDIT_GOALS, { error: 'Please choose from the listed goals' }), { error: 'Please choose at least one goal' })
    .min(1, 'Please choose at least one goal')
    .max(AUDIT_GOALS.length)
    .transform((goals) => AUDIT_GOALS.filter((g) => goals.includes(g))),
  message: z
    .string()
    .max(AUDIT_LIMITS.message, `Message must be at most ${AUDIT_LIMITS.message} characters`)
    .optional()
    .transform((v) => v?.trim() ?? '')
    .refine(isCleanText, 'Message contains characters that are not allowed'),
  consent: z.literal(true, { error: 'Please agree to be contacted about your audit' }),
});
export type AuditRequestInput = z.input<typeof auditRequestSchema>;
export type AuditRequestFields = z.output<typeof auditRequestSchema>;

/** The form's fields in the order the page shows them (the first one with an error gets focus). */
/** /free-audit?sent=1: the thank-you state an accepted request without script is redirected to. */
export const AUDIT_SENT_PARAM = 'sent';

export const AUDIT_FORM_FIELDS = ['fullName', 'email', 'businessName', 'website', 'phone', 'businessType', 'goals', 'message', 'consent'] as const;
export type AuditFormField = (typeof AUDIT_FORM_FIELDS)[number];

const cut = (v: string, max: number) => Array.from(v).slice(0, max).join('');

/** A referrer as kept: the other site's origin only (a path may carry anything, personal data included). */
function referrerOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > AUDIT_LIMITS.referrer) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Attribution from the hidden inputs: kept when plausible, dropped otherwise (a visitor cannot fix a hidden
 * field, so it never blocks the request). The landing page must be one of the site's public routes (its
 * query left off; the server also checks a detail page's id exists), the referrer is kept as its origin,
 * and UTM values follow the safe-value rule of src/shared/utm.ts: the admin reads none of a stranger's
 * sentences, links or markup as "where the lead came from".
 */
export function cleanAttribution(raw: Partial<Record<AttributionKey, unknown>>): AuditAttribution {
  const out: AuditAttribution = {};
  const page = sanitizeSitePath(raw.sourcePage)?.split(/[?#]/)[0];
  if (page && publicRouteOf(page)) out.sourcePage = page;
  const referrer = referrerOrigin(raw.referrer);
  if (referrer) out.referrer = referrer;
  for (const key of ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const) {
    const clean = safeUtm(raw[key]);
    if (clean) out[key] = clean;
  }
  return out;
}

/** What a submission carries besides the fields: the honeypot and the attribution. */
export interface AuditSubmission {
  fields: Record<string, unknown>;
  honeypot: string;
  attribution: AuditAttribution;
}

const stringOf = (v: unknown) => (typeof v === 'string' ? v : undefined);
const isChecked = (v: unknown) => v === true || v === 'on' || v === 'true' || v === 'yes';

/** A form post or a JSON body → the fields the schema reads, the honeypot and the attribution. */
export function auditSubmissionOf(source: FormData | Record<string, unknown>): AuditSubmission {
  const get = (key: string): unknown => (source instanceof FormData ? (source.get(key) ?? undefined) : source[key]);
  const goalsRaw: unknown = source instanceof FormData ? source.getAll('goals') : source.goals;
  const goals = Array.isArray(goalsRaw) ? goalsRaw.filter((g): g is string => typeof g === 'string') : typeof goalsRaw === 'string' ? [goalsRaw] : [];
  const fields: Record<string, unknown> = {
    fullName: stringOf(get('fullName')) ?? '',
    email: stringOf(get('email')) ?? '',
    businessName: stringOf(get('businessName')) ?? '',
    website: stringOf(get('website')),
    phone: stringOf(get('phone')),
    businessType: stringOf(get('businessType')) ?? '',
    goals,
    message: stringOf(get('message')),
    consent: isChecked(get('consent')),
  };
  const attribution = cleanAttribution(
    Object.fromEntries(Object.entries(ATTRIBUTION_FIELDS).map(([key, name]) => [key, get(name)])) as Partial<Record<AttributionKey, unknown>>,
  );
  return { fields, honeypot: stringOf(get(HONEYPOT_FIELD)) ?? '', attribution };
}

export type AuditFieldErrors = Partial<Record<AuditFormField | 'form', string>>;

/** Zod issues → the first message per field, the shape the page and the island show beside each field. */
export function auditFieldErrors(error: z.ZodError): AuditFieldErrors {
  const out: AuditFieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form') as AuditFormField | 'form';
    out[key] ??= issue.message;
  }
  return out;
}

/** What the form shows again after a failed post: the typed values (never more than the caps allow). */
export interface AuditFormValues {
  fullName: string;
  email: string;
  businessName: string;
  website: string;
  phone: string;
  businessType: string;
  goals: string[];
  message: string;
  consent: boolean;
}

export function auditFormValuesOf(fields: Record<string, unknown>): AuditFormValues {
  const s = (v: unknown, max: number) => (typeof v === 'string' ? cut(v, max) : '');
  return {
    fullName: s(fields.fullName, AUDIT_LIMITS.fullName * 2),
    email: s(fields.email, 400),
    businessName: s(fields.businessName, AUDIT_LIMITS.businessName * 2),
    website: s(fields.website, 2100),
    phone: s(fields.phone, 100),
    businessType: s(fields.businessType, 40),
    goals: Array.isArray(fields.goals) ? fields.goals.filter((g): g is string => (AUDIT_GOALS as readonly string[]).includes(g as string)) : [],
    message: s(fields.message, AUDIT_LIMITS.message + 500),
    consent: fields.consent === true,
  };
}

export const EMPTY_AUDIT_FORM: AuditFormValues = {
  fullName: '',
  email: '',
  businessName: '',
  website: '',
  phone: '',
  businessType: '',
  goals: [],
  message: '',
  consent: false,
};

// ---------------------------------------------------------------------------------------------------------
// Admin side.

export const AUDIT_PER_PAGE = 25;

/** The audit list's report filter: a request waiting for its report, one whose report went out, one opened. */
export const AUDIT_REPORT_FILTERS = REPORT_STATES;
export const AUDIT_REPORT_FILTER_LABELS: Record<ReportState, string> = { waiting: 'Waiting for a report', sent: 'Report sent', opened: 'Report opened' };

/** /admin/audit's URL state (`?q=&report=&stage=&page=`): anything unreadable falls back to the default. */
export interface AuditListQuery {
  q: string;
  report: ReportState | '';
  /** The requester's stage (the person's, as on their lead page). */
  stage: LeadStage | '';
  page: number;
}

export function auditListQueryOf(params: URLSearchParams): AuditListQuery {
  const q = cut(cleanLine(params.get('q') ?? '', ' ').trim(), AUDIT_LIMITS.search);
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const report = params.get('report') ?? '';
  const stage = params.get('stage') ?? '';
  return {
    q,
    report: isReportState(report) ? report : '',
    stage: isLeadStage(stage) ? stage : '',
    page: Number.isFinite(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string of a list URL (defaults left out, so links stay short). */
export function auditListSearch(query: Partial<AuditListQuery>): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.report) params.set('report', query.report);
  if (query.stage) params.set('stage', query.stage);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export const auditNoteSchema = z.object({
  body: z
    .string({ error: 'Note is required' })
    .trim()
    .min(1, 'Note must not be empty')
    .max(AUDIT_LIMITS.note, `Note must be at most ${AUDIT_LIMITS.note} characters`),
});

/** Audit request ids are random UUIDs. */
export const auditRequestId = z.uuid('Not a valid request id');
