/**
 * Working a lead (issue 23): the stages a person moves through, their owner and the day to follow up, and
 * the team's notes. Shared by the person page's panel, the leads list's filters and the service, which
 * holds the rules (a follow-up is set for today or later, in the site's time zone).
 */
import { z } from 'astro/zod';

export const LEAD_STAGES = ['new', 'contacted', 'call-booked', 'client', 'not-a-fit'] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

export const LEAD_STAGE_LABELS: Record<LeadStage, string> = {
  new: 'New',
  contacted: 'Contacted',
  'call-booked': 'Call booked',
  client: 'Client',
  'not-a-fit': 'Not a fit',
};

/** Badge colours by stage (text and background pass WCAG AA contrast). */
const LEAD_STAGE_BADGE: Record<LeadStage, string> = {
  new: 'bg-sky-50 text-sky-800 ring-sky-200',
  contacted: 'bg-amber-50 text-amber-800 ring-amber-200',
  'call-booked': 'bg-violet-50 text-violet-800 ring-violet-200',
  client: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  'not-a-fit': 'bg-slate-100 text-slate-700 ring-slate-300',
};

export const isLeadStage = (v: unknown): v is LeadStage => typeof v === 'string' && (LEAD_STAGES as readonly string[]).includes(v);
export const leadStageLabel = (stage: string) => (isLeadStage(stage) ? LEAD_STAGE_LABELS[stage] : stage);
export const leadStageBadgeClass = (stage: string) =>
  `inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${LEAD_STAGE_BADGE[isLeadStage(stage) ? stage : 'new']}`;

export const LEAD_NOTE_MAX = 5000;

export const leadNoteSchema = z.object({
  body: z.string().trim().min(1, 'Note must not be empty').max(LEAD_NOTE_MAX, `Note must be at most ${LEAD_NOTE_MAX} characters`),
});

/** "2026-12-01": a calendar day, as a date input gives it. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A day that exists: 2026-02-30 and 2026-13-01 do not (Date would roll them over, or be invalid). */
function isRealDay(day: string): boolean {
  const m = DAY.exec(day);
  if (!m) return false;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(year, month - 1, date));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === date;
}

const DAY_MESSAGE = 'Enter a date such as 2026-12-01';

export const followUpDaySchema = z.string({ error: DAY_MESSAGE }).refine(isRealDay, DAY_MESSAGE).nullable();

/** The leads list's filters for working them (besides search, kind and sort): `?stage=&owner=&due=`. */
export const LEAD_OWNER_FILTERS = { mine: 'me', nobody: 'none' } as const;
