/**
 * Admin Actions (every name starts with `admin.`: the route guard lets only verified admins reach them,
 * and each service checks the acting admin again inside its transaction). Thin: parse (the type's shared
 * schema) → service → invalidate the cache tags the service touched → map the result.
 */
import { defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from 'astro/zod';
import { invalidateTags, type CacheTag } from '../server/cache/tags';
import {
  createRecord,
  deleteRecord,
  duplicateRecord,
  reorderRecords,
  revertChange,
  updateRecord,
  type WriteResult,
} from '../server/modules/content/service';
import { collectionOf } from '../server/modules/content/registry';
import { restoreDefaultFaqs } from '../server/modules/faqs/service';
import {
  documentActivityEntry,
  revertDocumentChange,
  saveGeneralSettings,
  saveLandingLayout,
  saveSeoEntry,
  saveSiteContent,
  type DocumentWriteResult,
} from '../server/modules/site-admin/service';
import type { ContentType } from '../server/modules/content/types';
import { POLICY_KINDS, savePolicy } from '../server/modules/policies/service';
import { previewHtml } from '../server/modules/rich-text/service';
import { LIMITS, recordId } from '../shared/schemas/fields';
import { policyFieldsSchema } from '../shared/schemas/policy';
import { auditActions } from './admin-audit';
import { leadsActions } from './admin-leads';
import { chatActions } from './admin-chat';
import { chatSettingsActions } from './admin-chat-settings';
import { usersActions } from './admin-users';
import { toActionError } from './errors';

const idInput = z.object({ id: recordId });

/** Runs a write, then drops the cached public pages it affected: visitors see it on their next request. */
async function write(ctx: ActionAPIContext, work: () => Promise<WriteResult>, fieldPathPrefix: readonly string[] = []) {
  try {
    const result = await work();
    if (result.tags.length) await invalidateTags(ctx, result.tags as CacheTag[]);
    return { id: result.id, snapshot: result.snapshot ?? null };
  } catch (err) {
    return toActionError(err, fieldPathPrefix);
  }
}

/** A save of a site-wide document; the editor gets the new version to send with its next save. */
async function writeDocument(ctx: ActionAPIContext, work: () => Promise<DocumentWriteResult>, fieldPathPrefix: readonly string[]) {
  try {
    const result = await work();
    if (result.tags.length) await invalidateTags(ctx, result.tags as CacheTag[]);
    return { id: result.id, version: result.version };
  } catch (err) {
    return toActionError(err, fieldPathPrefix);
  }
}

/** Documents arrive as plain objects; the service validates them with the shared schema (messages by field path). */
const documentInput = z.record(z.string(), z.unknown());
const version = z.string().max(40);

/** create, update, duplicate, remove and reorder for one content type. */
function contentActions(type: ContentType) {
  const { fields } = collectionOf(type);
  return {
    create: defineAction({
      input: z.object({ fields }),
      handler: (input, ctx) => write(ctx, () => createRecord(ctx.locals.user?.id, type, input.fields), ['fields']),
    }),
    update: defineAction({
      input: z.object({ id: recordId, version: z.string().max(40), newId: z.string().max(200).optional(), fields }),
      handler: ({ id, version, newId, fields: values }, ctx) =>
        write(ctx, () => updateRecord(ctx.locals.user?.id, type, id, { version, newId, fields: values }), ['fields']),
    }),
    duplicate: defineAction({
      input: idInput,
      handler: ({ id }, ctx) => write(ctx, () => duplicateRecord(ctx.locals.user?.id, type, id)),
    }),
    remove: defineAction({
      input: idInput,
      handler: ({ id }, ctx) => write(ctx, () => deleteRecord(ctx.locals.user?.id, type, id)),
    }),
    reorder: defineAction({
      input: z.object({ ids: z.array(recordId).max(5000) }),
      handler: ({ ids }, ctx) => write(ctx, () => reorderRecords(ctx.locals.user?.id, type, ids)),
    }),
  };
}

/** The longest HTML any field takes (article bodies and policies). */
const MAX_HTML = Math.max(LIMITS.html, LIMITS.articleHtml, LIMITS.policyHtml);

export const admin = {
  services: contentActions('service'),
  demos: contentActions('demo'),
  packages: contentActions('package'),
  html: {
    /** What saving this HTML would store (and visitors would get): the rich-text editor's Preview tab. */
    preview: defineAction({
      input: z.object({ html: z.string().max(MAX_HTML) }),
      handler: async ({ html }, ctx) => {
        try {
          return { html: await previewHtml(ctx.locals.user?.id, html) };
        } catch (err) {
          return toActionError(err);
        }
      },
    }),
  },
  policies: {
    /** Saves the privacy policy or the terms; saving exactly the default text restores the default. */
    save: defineAction({
      input: z.object({ kind: z.enum(POLICY_KINDS), version: z.string().max(40), fields: policyFieldsSchema }),
      handler: async ({ kind, version, fields }, ctx) => {
        try {
          const result = await savePolicy(ctx.locals.user?.id, kind, { version, html: fields.html });
          if (result.tags.length) await invalidateTags(ctx, result.tags);
          return { version: result.version, snapshot: result.snapshot };
        } catch (err) {
          return toActionError(err, ['fields']);
        }
      },
    }),
  },
  articles: contentActions('article'),
  faqs: {
    ...contentActions('faq'),
    /** The empty FAQ list's "Restore the ten defaults": the built-in answers become records to edit. */
    restoreDefaults: defineAction({
      input: z.object({}),
      handler: (_input, ctx) => write(ctx, () => restoreDefaultFaqs(ctx.locals.user?.id)),
    }),
  },
  /** The site texts (hero, what we build, testimonials, CTAs, footer, booking URL, currency, business). */
  site: {
    save: defineAction({
      input: z.object({ version, content: documentInput }),
      handler: (input, ctx) => writeDocument(ctx, () => saveSiteContent(ctx.locals.user?.id, input), ['content']),
    }),
  },
  /** The landing page's block order and hidden blocks. */
  landing: {
    save: defineAction({
      input: z.object({ version, layout: documentInput }),
      handler: (input, ctx) => writeDocument(ctx, () => saveLandingLayout(ctx.locals.user?.id, input), ['layout']),
    }),
  },
  /** One public page's SEO entry, or the site defaults. */
  seo: {
    save: defineAction({
      input: z.object({ path: z.string().max(300), version, fields: documentInput }),
      handler: (input, ctx) => writeDocument(ctx, () => saveSeoEntry(ctx.locals.user?.id, input), ['fields']),
    }),
  },
  /** The general settings (/admin/settings): the site's time zone and where prospects' replies go. */
  settings: {
    save: defineAction({
      // The editor sends the version it opened; a caller without one (a script) saves over whatever is stored.
      input: z.object({ version: version.optional(), settings: documentInput }),
      handler: (input, ctx) => writeDocument(ctx, () => saveGeneralSettings(ctx.locals.user?.id, input), ['settings']),
    }),
  },
  /** Free-audit requests: status, internal notes, assignment. */
  audit: auditActions,
  leads: leadsActions,
  /** Accounts: role, disable / enable (signs out everywhere), verification email again. */
  users: usersActions,
  /** The chat: its settings, and the inbox (reply, which takes over; release; handled/open; read). */
  chat: { ...chatSettingsActions, ...chatActions },
  activity: {
    revert: defineAction({
      input: z.object({ id: z.uuid() }),
      // A site-wide document's entry (site texts, landing layout, SEO, chat or general settings) is reverted by its own engine.
      handler: async ({ id }, ctx) => {
        const documentEntry = await documentActivityEntry(id);
        if (documentEntry) return writeDocument(ctx, () => revertDocumentChange(ctx.locals.user?.id, documentEntry), []);
        return write(ctx, () => revertChange(ctx.locals.user?.id, id));
      },
    }),
  },
};
