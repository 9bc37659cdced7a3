/**
 * admin.leads.* — working a lead from their page (issue 23): stage, owner, follow-up day, notes. Admin-only
 * in the route guard (every `admin.` Action) and again in the service's transaction. Thin: parse → service.
 */
import { defineAction } from 'astro:actions';
import { z } from 'astro/zod';
import { deleteMailTemplate, saveMailTemplate, sendLeadMail } from '../server/modules/leads/mail';
import { erasePerson, erasePreview } from '../server/modules/leads/erase';
import { mergePeople, mergePreview } from '../server/modules/leads/merge';
import { moreBoardCards } from '../server/modules/leads/people';
import { peopleQueryOf } from '../shared/lead-people';
import { addLeadNote, assignLead, setFollowUp, setLeadStage, setReplied } from '../server/modules/leads/work';
import { enrolEveryoneWaiting, enrolPerson, sequenceCardNumbers } from '../server/modules/lead-sequences/enrolment';
import { saveQuietHours, saveSequence, sendNextStepNow } from '../server/modules/lead-sequences/service';
import { SEQUENCE_STEPS_MAX, SEQUENCE_TRIGGERS } from '../shared/schemas/lead-sequences';
import { LEAD_MAIL_BODY_MAX, LEAD_MAIL_SUBJECT_MAX } from '../shared/schemas/lead-mail';
import { LEAD_NOTE_MAX, LEAD_STAGES } from '../shared/schemas/lead-work';
import { toActionError } from './errors';

const email = z.string().trim().min(3).max(320);
// Bounds of what is read; the shared schema's rules and messages are the service's.
const mailFields = { subject: z.string().max(LEAD_MAIL_SUBJECT_MAX * 2), body: z.string().max(LEAD_MAIL_BODY_MAX * 2) };

export const leadsActions = {
  setStage: defineAction({
    input: z.object({ email, stage: z.enum(LEAD_STAGES) }),
    handler: async ({ email: person, stage }, ctx) => {
      try {
        return await setLeadStage(ctx.locals.user?.id, person, stage);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  assign: defineAction({
    input: z.object({ email, ownerId: z.string().min(1).max(100).nullable() }),
    handler: async ({ email: person, ownerId }, ctx) => {
      try {
        return await assignLead(ctx.locals.user?.id, person, ownerId);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  setFollowUp: defineAction({
    // The service holds the day's rules and messages; this only bounds what is read.
    input: z.object({ email, followUpOn: z.string().max(20).nullable() }),
    handler: async ({ email: person, followUpOn }, ctx) => {
      try {
        return await setFollowUp(ctx.locals.user?.id, person, followUpOn);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  addNote: defineAction({
    input: z.object({ email, body: z.string().max(LEAD_NOTE_MAX * 2) }),
    handler: async ({ email: person, body }, ctx) => {
      try {
        const note = await addLeadNote(ctx.locals.user?.id, person, body);
        return { id: note.id, authorName: note.authorName, body: note.body, createdAt: note.createdAt.toISOString() };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  sendMail: defineAction({
    input: z.object({ email, ...mailFields }),
    handler: async ({ email: person, subject, body }, ctx) => {
      try {
        return await sendLeadMail(ctx.locals.user?.id, person, { subject, body });
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  saveMailTemplate: defineAction({
    input: z.object({ id: z.string().min(1).max(100).nullable(), name: z.string().max(200), ...mailFields }),
    handler: async ({ id, ...template }, ctx) => {
      try {
        const saved = await saveMailTemplate(ctx.locals.user?.id, id, template);
        return { id: saved.id, name: saved.name, subject: saved.subject, body: saved.body };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  deleteMailTemplate: defineAction({
    input: z.object({ id: z.string().min(1).max(100) }),
    handler: async ({ id }, ctx) => {
      try {
        await deleteMailTemplate(ctx.locals.user?.id, id);
        return { deleted: true };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  /** The pipeline board's "Show more" in one column: the list's filters, as the board's URL has them. */
  boardColumn: defineAction({
    input: z.object({ stage: z.enum(LEAD_STAGES), offset: z.number().int().min(0).max(1_000_000), filters: z.object({ q: z.string().max(200), kind: z.string().max(40), owner: z.string().max(100), due: z.string().max(1) }).partial() }),
    handler: async ({ stage, offset, filters }, ctx) => {
      try {
        return await moreBoardCards(ctx.locals.user?.id, peopleQueryOf(new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined))), stage, offset);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  /** What merging `other` into the person would move, for the confirmation. */
  mergePreview: defineAction({
    input: z.object({ email, other: z.string().max(320) }),
    handler: async ({ email: person, other }, ctx) => {
      try {
        return await mergePreview(ctx.locals.user?.id, person, other);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  /** Merges `other` into the person: one person, `other` kept as an alias. */
  merge: defineAction({
    input: z.object({ email, other: z.string().max(320) }),
    handler: async ({ email: person, other }, ctx) => {
      try {
        return await mergePeople(ctx.locals.user?.id, person, other);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  /** What erasing the person would remove, for the confirmation. */
  erasePreview: defineAction({
    input: z.object({ email }),
    handler: async ({ email: person }, ctx) => {
      try {
        return await erasePreview(ctx.locals.user?.id, person);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  /** Erases everything kept about the person (GDPR article 17). */
  erase: defineAction({
    input: z.object({ email }),
    handler: async ({ email: person }, ctx) => {
      try {
        return await erasePerson(ctx.locals.user?.id, person);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  setReplied: defineAction({
    input: z.object({ email, replied: z.boolean() }),
    handler: async ({ email: person, replied }, ctx) => {
      try {
        return await setReplied(ctx.locals.user?.id, person, replied);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  saveSequence: defineAction({
    // Bounds of what is read; the shared sequence schema's rules and messages are the service's.
    input: z.object({
      trigger: z.enum(SEQUENCE_TRIGGERS),
      active: z.boolean(),
      steps: z.array(z.object({ delayDays: z.union([z.number(), z.string().max(10)]), ...mailFields })).max(SEQUENCE_STEPS_MAX),
    }),
    handler: async ({ trigger, ...sequence }, ctx) => {
      try {
        const saved = await saveSequence(ctx.locals.user?.id, trigger, sequence);
        // Turned on: the card offers to enrol the people who already agreed (its numbers say how many).
        return { trigger: saved.trigger, active: saved.active, steps: saved.steps, ...(await sequenceCardNumbers(trigger)) };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  enrolWaiting: defineAction({
    input: z.object({ trigger: z.enum(SEQUENCE_TRIGGERS) }),
    handler: async ({ trigger }, ctx) => {
      try {
        const { enrolled, firstStepAt } = await enrolEveryoneWaiting(ctx.locals.user?.id, trigger);
        return { enrolled, firstStepAt: firstStepAt.toISOString(), ...(await sequenceCardNumbers(trigger)) };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  enrolPerson: defineAction({
    input: z.object({ email, trigger: z.enum(SEQUENCE_TRIGGERS) }),
    handler: async ({ email: person, trigger }, ctx) => {
      try {
        const { firstStepAt } = await enrolPerson(ctx.locals.user?.id, person, trigger);
        return { firstStepAt: firstStepAt.toISOString() };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  saveQuietHours: defineAction({
    input: z.object({ start: z.string().max(10), end: z.string().max(10) }),
    handler: async (quiet, ctx) => {
      try {
        return await saveQuietHours(ctx.locals.user?.id, quiet);
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
  sendSequenceStepNow: defineAction({
    input: z.object({ enrollmentId: z.string().min(1).max(100) }),
    handler: async ({ enrollmentId }, ctx) => {
      try {
        return { outcome: await sendNextStepNow(ctx.locals.user?.id, enrollmentId) };
      } catch (err) {
        return toActionError(err);
      }
    },
  }),
};
