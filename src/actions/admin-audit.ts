/**
 * admin.audit.* — the free-audit requests' admin writes (notes, the website check run again, the report's
 * draft and its sending; the requester's stage and owner are the person's, admin.leads.*) and the state of the newest website check, which the page waits on. Admin-only in the route
 * guard (every `admin.` Action) and again in the service (in its transaction for the writes). Thin: parse → service → result.
 */
import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { addAuditNote } from '../server/modules/audit/service';
import { saveReportDraft, sendAuditReport } from '../server/modules/audit-report/service';
import { latestRunState, runSiteAuditAgain } from '../server/modules/site-audit/service';
import { REPORT_LIMITS } from '../shared/schemas/audit-report';
import { AUDIT_LIMITS } from '../shared/schemas/audit';
import { toActionError } from './errors';

const id = z.uuid();
/** Bounds what is read; the service holds the draft's rules and messages (src/shared/schemas/audit-report.ts). */
const reportDraft = z.object({
  id,
  summary: z.string().max(REPORT_LIMITS.summary * 2),
  notes: z.record(z.string().max(100), z.string().max(REPORT_LIMITS.note * 2)),
  hidden: z.array(z.string().max(100)).max(REPORT_LIMITS.checks * 2),
});

export const auditActions = {
  addNote: defineAction({
    // The service holds the note's rule (and its message); this only bounds what is read.
    input: z.object({ id, body: z.string().max(AUDIT_LIMITS.note * 2) }),
    handler: async ({ id: requestId, body }, ctx) => {
      try {
        const note = await addAuditNote(ctx.locals.user?.id, requestId, body);
        return { id: note.id, authorName: note.authorName, body: note.body, createdAt: note.createdAt.toISOString() };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  runSiteCheck: defineAction({
    // The service normalises and judges the address (and says why one cannot be checked).
    input: z.object({ id, url: z.string().max(2100).optional() }),
    handler: async ({ id: requestId, url }, ctx) => {
      try {
        return await runSiteAuditAgain(ctx.locals.user?.id, requestId, url);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  saveReport: defineAction({
    input: reportDraft,
    handler: async ({ id: requestId, ...draft }, ctx) => {
      try {
        return await saveReportDraft(ctx.locals.user?.id, requestId, draft);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  sendReport: defineAction({
    input: reportDraft,
    handler: async ({ id: requestId, ...draft }, ctx) => {
      try {
        const sent = await sendAuditReport(ctx.locals.user?.id, requestId, draft);
        return { ...sent, expiresAt: sent.expiresAt.toISOString() };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  siteCheckState: defineAction({
    input: z.object({ id }),
    handler: async ({ id: requestId }, ctx) => {
      try {
        return (await latestRunState(ctx.locals.user?.id, requestId)) ?? null;
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
};
