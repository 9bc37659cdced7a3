/**
 * The audit report an owner sends (issue 22): the draft's rules (a summary, a note per check, checks left
 * out), shared by the admin's editor and the Action, and the report link's token format. Pure: no server imports.
 */
import { isCleanText } from '../text-controls';
import { z } from '../zod';

export const REPORT_LIMITS = {
  summary: 4000,
  note: 1000,
  /** More than the checks there are (CHECK_COUNT in site-audit/checks; a unit test keeps this above it), so a future check never hits it, yet bounded. */
  checks: 100,
} as const;

/** A check's stable id ('https', 'title-length'): what notes and hidden checks are keyed by. */
export const checkIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'Not a check id');

const cleanText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isCleanText, `${label} contains characters that are not text`);

export const reportDraftSchema = z.object({
  summary: cleanText('Summary', REPORT_LIMITS.summary),
  /** Empty notes are dropped, not stored. */
  notes: z
    .record(checkIdSchema, cleanText('Note', REPORT_LIMITS.note))
    .refine((notes) => Object.keys(notes).length <= REPORT_LIMITS.checks, 'Too many notes')
    .transform((notes) => Object.fromEntries(Object.entries(notes).filter(([, note]) => note !== ''))),
  hidden: z
    .array(checkIdSchema)
    .max(REPORT_LIMITS.checks, 'Too many hidden checks')
    .transform((ids) => [...new Set(ids)]),
});
export type ReportDraftInput = z.input<typeof reportDraftSchema>;
export type ReportDraft = z.output<typeof reportDraftSchema>;

export const EMPTY_REPORT_DRAFT: ReportDraft = { summary: '', notes: {}, hidden: [] };

/** The private link's token: 32 random bytes as base64url (43 characters). Anything else is not looked up. */
export const REPORT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const REPORT_PATH_PREFIX = '/audit-report/';
