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
import type { ContentType } from '../server/modules/content/types';
import { recordId } from '../shared/schemas/fields';
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

export const admin = {
  services: contentActions('service'),
  articles: contentActions('article'),
  faqs: {
    ...contentActions('faq'),
    /** The empty FAQ list's "Restore the ten defaults": the built-in answers become records to edit. */
    restoreDefaults: defineAction({
      input: z.object({}),
      handler: (_input, ctx) => write(ctx, () => restoreDefaultFaqs(ctx.locals.user?.id)),
    }),
  },
  activity: {
    revert: defineAction({
      input: z.object({ id: z.uuid() }),
      handler: ({ id }, ctx) => write(ctx, () => revertChange(ctx.locals.user?.id, id)),
    }),
  },
};
