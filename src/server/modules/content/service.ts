/**
 * Admin writes to the content types (services, demos, packages, articles, FAQs), once for all of them.
 * Each write runs in one transaction that checks the acting admin, validates with the type's shared
 * schema, sanitizes HTML, writes, keeps moved URLs answering (redirects) and records the change in the
 * activity log (who, what, before and after). It returns the cache tags it touched; the caller (the
 * Action) invalidates them once the transaction has committed, so visitors see the change on their next
 * request.
 */
import { sql } from 'drizzle-orm';
import { db } from '../../db';
import type { CacheTag } from '../../cache/tags';
import { sanitizeHtml } from '../../html/sanitize';
import { fieldErrorsByPath, PICTURE_ALT_FIELDS } from '../../../shared/schemas/catalog';
import { recordId } from '../../../shared/schemas/fields';
import { slugify } from '../../../shared/text';
import { findActivity, insertActivity, type ActivityRow } from '../activity/repository';
import { lastSaveOf } from '../activity/service';
import { POLICY_ENTITY_TYPE, revertPolicyChange } from '../policies/service';
import { pictureAltOf, placePictureAlt, PICTURE_PAGE_TAGS } from '../media-library/picture-alt';
import { addRedirect } from '../redirects/service';
import { requireAdmin, type Profile } from '../users/service';
import { collectionOf } from './registry';
import { ContentError, conflict, invalid, notFound } from './errors';
import { CONTENT_TYPES, type Collection, type ContentType, type Executor, type ListQuery, type Snapshot } from './types';
import { stableJson } from '../../../shared/stable-json';
import { fieldLabelInSentence } from '../../../shared/activity-diff';

export interface WriteResult {
  id: string;
  snapshot: Snapshot | undefined;
  tags: readonly CacheTag[];
}

type Fields = Record<string, unknown>;

const adminWrite = <T>(actorId: string | undefined, work: (tx: Executor, actor: Profile) => Promise<T>): Promise<T> =>
  db().transaction(async (tx) => work(tx, await requireAdmin(actorId, tx)));

// ---------------------------------------------------------------------------------------------------------
// Fields

/** The editable fields of a snapshot, in the schema's key order (what the editor sends back). */
function editableOf(collection: Collection, snapshot: Snapshot): Fields {
  return Object.fromEntries(Object.keys(collection.fields.shape).map((k) => [k, snapshot[k]]));
}


const sameFields = (a: Fields, b: Fields) => stableJson(a) === stableJson(b);

// ---------------------------------------------------------------------------------------------------------
// Pictures' alt texts (decision 033): a library picture's lives on its media row, not on the record

const picturesOf = (collection: Collection) => PICTURE_ALT_FIELDS[collection.type];

/** A record as the editor and the activity log see it: each picture with the alt text pages show. */
async function readRecord(tx: Executor, collection: Collection, id: string): Promise<Snapshot | undefined> {
  const snapshot = await collection.read(tx, id);
  if (!snapshot) return undefined;
  for (const { picture, alt } of picturesOf(collection)) {
    snapshot[alt] = await pictureAltOf(tx, String(snapshot[picture] ?? ''), String(snapshot[alt] ?? ''));
  }
  return snapshot;
}

/**
 * The fields as the record's table stores them: each alt text placed on its picture's media row (the
 * record keeps it only for an outside picture). `tags` are the pages a changed picture shows on.
 */
async function storedFields(tx: Executor, collection: Collection, fields: Fields): Promise<{ stored: Fields; tags: readonly CacheTag[] }> {
  const stored = { ...fields };
  let pictureChanged = false;
  for (const { picture, alt } of picturesOf(collection)) {
    const placed = await placePictureAlt(tx, String(fields[picture] ?? ''), String(fields[alt] ?? ''));
    stored[alt] = placed.recordAlt;
    pictureChanged ||= placed.pictureChanged;
  }
  return { stored, tags: pictureChanged ? PICTURE_PAGE_TAGS : [] };
}

const withTags = (a: readonly CacheTag[], b: readonly CacheTag[]) => [...new Set([...a, ...b])];

/** Validated, sanitized fields; INVALID with messages by field path otherwise. */
export function parseFields(collection: Collection, input: unknown): Fields {
  const parsed = collection.fields.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsByPath(parsed.error.issues));
  const fields = { ...(parsed.data as Fields) };
  for (const name of collection.htmlFields) {
    if (typeof fields[name] === 'string') fields[name] = sanitizeHtml(fields[name]);
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------------
// Ids and URLs

/** Ids the admin pages use themselves: /admin/{type}/new creates, so a record "new" could not be edited. */
const RESERVED_IDS: ReadonlySet<string> = new Set(['new']);

/** `base`, or `base-2`, `base-3`…: the first value no other record of the type uses. */
async function uniqueValue(tx: Executor, collection: Collection, base: string, exceptId?: string): Promise<string> {
  const root = slugify(base).slice(0, 100) || collection.type;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? root : `${root}-${n}`;
    if (!RESERVED_IDS.has(candidate) && !(await collection.isTaken(tx, candidate, exceptId))) return candidate;
  }
}

/** An empty URL field (an article's slug left blank) is made from the title: readable and unique. */
async function fillUrlField(tx: Executor, collection: Collection, fields: Fields, exceptId?: string) {
  const field = collection.urlField;
  if (!field || String(fields[field] ?? '') !== '') return;
  fields[field] = await uniqueValue(tx, collection, titleOf(collection, fields), exceptId);
}

const titleOf = (collection: Collection, s: Snapshot | Fields) => String(s[collection.titleField] ?? '').slice(0, 120);

/** Checks a requested new id ("URL name"); INVALID when malformed or taken. */
async function checkNewId(tx: Executor, collection: Collection, id: string, newId: string) {
  const parsed = recordId.safeParse(newId);
  if (!parsed.success) throw invalid({ id: parsed.error.issues[0]!.message });
  if (RESERVED_IDS.has(newId)) throw invalid({ id: `“${newId}” is reserved for creating a ${collection.label.one}: choose another URL name.` });
  if (newId !== id && (await collection.isTaken(tx, newId, id))) throw invalid({ id: `Another ${collection.label.one} already uses this URL name.` });
}

/** The type's own rules that need the database; INVALID with the messages by field otherwise. */
async function checkReferences(tx: Executor, collection: Collection, fields: Fields) {
  const problems = (await collection.checkReferences?.(tx, fields)) ?? {};
  if (Object.keys(problems).length > 0) throw invalid(problems);
}

async function checkUrlField(tx: Executor, collection: Collection, fields: Fields, exceptId?: string) {
  const field = collection.urlField;
  if (!field) return;
  if (await collection.isTaken(tx, String(fields[field]), exceptId)) {
    throw invalid({ [field]: `Another ${collection.label.one} already uses this ${field}.` });
  }
}

/** A rename moves the public page: the old path answers 301 to the new one from now on. */
async function keepOldPathWorking(tx: Executor, collection: Collection, before: Snapshot, after: Snapshot | undefined) {
  const from = collection.publicPath(before);
  const to = after && collection.publicPath(after);
  if (from && to && from !== to) await addRedirect(tx, from, to);
}

// ---------------------------------------------------------------------------------------------------------
// Activity

interface Change {
  action: 'create' | 'update' | 'delete' | 'reorder' | 'revert';
  entityId: string;
  summary: string;
  before?: unknown;
  after?: unknown;
  revertOf?: string;
}

function record(tx: Executor, actor: Profile, collection: Collection, change: Change): Promise<ActivityRow> {
  return insertActivity(tx, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: change.action,
    entityType: collection.type,
    entityId: change.entityId,
    summary: change.summary,
    before: change.before ?? null,
    after: change.after ?? null,
    revertOf: change.revertOf ?? null,
  });
}

/** The changed fields as a sentence names them ("short text", not "shortText"). */
function changedFieldLabels(collection: Collection, before: Snapshot, after: Fields): string[] {
  return Object.keys(collection.fields.shape)
    .filter((k) => stableJson(before[k]) !== stableJson(after[k]))
    .map(fieldLabelInSentence);
}

// ---------------------------------------------------------------------------------------------------------
// Reads for the admin pages

export async function getForEditor(type: ContentType, id: string): Promise<Snapshot | undefined> {
  const ex = db();
  return readRecord(ex, collectionOf(type), id);
}

/** Every id of the type in public order. */
export async function listIds(type: ContentType): Promise<string[]> {
  return collectionOf(type).ids(db());
}

export async function listForAdmin(type: ContentType, query: ListQuery) {
  return collectionOf(type).listRows(db(), query);
}

// ---------------------------------------------------------------------------------------------------------
// Writes

/** Validates and inserts one new record at the end of the public order, and records it. */
async function insertNew(tx: Executor, actor: Profile, collection: Collection, input: unknown, summary = (title: string) => `Created ${collection.label.one} “${title}”`) {
  const fields = parseFields(collection, input);
  await fillUrlField(tx, collection, fields);
  await checkUrlField(tx, collection, fields);
  await checkReferences(tx, collection, fields);
  const id = await uniqueValue(tx, collection, String(fields[collection.urlField ?? collection.titleField]));
  const ids = await collection.ids(tx);
  const { stored, tags } = await storedFields(tx, collection, fields);
  await collection.insert(tx, id, stored, collection.ordered ? ids.length : 0);
  const after = await readRecord(tx, collection, id);
  await record(tx, actor, collection, { action: 'create', entityId: id, summary: summary(titleOf(collection, fields)), after });
  return { id, snapshot: after, tags: withTags(collection.tags, tags) };
}

export async function createRecord(actorId: string | undefined, type: ContentType, input: unknown): Promise<WriteResult> {
  const collection = collectionOf(type);
  return adminWrite(actorId, (tx, actor) => insertNew(tx, actor, collection, input));
}

export interface FillOptions {
  /** The activity entry of each record ("Restored default FAQ “…”"). */
  summary(title: string): string;
  /** Why nothing was added when records exist (`count` of them). */
  refusal(count: number): string;
}

/**
 * Creates `inputs` in order, in one transaction, only when the type has no record at all (FAQs: "restore
 * the ten defaults" from the empty list). Each is its own activity entry, so each can be reverted.
 */
export async function createAllWhenEmpty(actorId: string | undefined, type: ContentType, inputs: readonly unknown[], options: FillOptions): Promise<WriteResult & { ids: string[] }> {
  const collection = collectionOf(type);
  return adminWrite(actorId, async (tx, actor) => {
    // Two admins pressing the button at once: the second waits here, then finds the records of the first.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`content-fill:${type}`}))`);
    const existing = (await collection.ids(tx)).length;
    if (existing > 0) throw new ContentError('CONFLICT', options.refusal(existing));
    const ids: string[] = [];
    let tags = collection.tags;
    for (const input of inputs) {
      const created = await insertNew(tx, actor, collection, input, options.summary);
      ids.push(created.id);
      tags = withTags(tags, created.tags);
    }
    return { id: '', ids, snapshot: undefined, tags };
  });
}

export interface UpdateInput {
  /** The record's `updatedAt` when the editor opened it. */
  version: string;
  fields: unknown;
  /** A new id (the "URL name" of services, demos and packages). */
  newId?: string | undefined;
}

export async function updateRecord(actorId: string | undefined, type: ContentType, id: string, input: UpdateInput): Promise<WriteResult> {
  const collection = collectionOf(type);
  return adminWrite(actorId, async (tx, actor) => {
    const before = await readRecord(tx, collection, id);
    if (!before) throw notFound(collection.label.one);
    const fields = parseFields(collection, input.fields);
    await fillUrlField(tx, collection, fields, id);
    const newId = input.newId?.trim() || id;
    const unchanged = sameFields(editableOf(collection, before), fields) && newId === id;
    // Saved by someone else since this editor opened it: refuse, unless this exact content is what is
    // stored (a retried save whose first answer was lost).
    if (before.updatedAt !== input.version && !unchanged) {
      throw conflict(collection.label.one, await lastSaveOf(tx, collection.type, id));
    }
    if (unchanged) return { id, snapshot: before, tags: [] };
    if (newId !== id) await checkNewId(tx, collection, id, newId);
    await checkUrlField(tx, collection, fields, id);
    await checkReferences(tx, collection, fields);
    const { stored, tags } = await storedFields(tx, collection, fields);
    await collection.update(tx, id, stored, newId === id ? undefined : newId);
    const after = await readRecord(tx, collection, newId);
    await keepOldPathWorking(tx, collection, before, after);
    const changed = changedFieldLabels(collection, before, fields);
    if (newId !== id) changed.unshift('URL name');
    await record(tx, actor, collection, {
      action: 'update',
      entityId: newId,
      summary: `Updated ${collection.label.one} “${titleOf(collection, fields)}”: ${changed.join(', ')}`,
      before,
      after,
    });
    return { id: newId, snapshot: after, tags: withTags(collection.tags, tags) };
  });
}

const COPY_SUFFIX = ' (copy)';

export async function duplicateRecord(actorId: string | undefined, type: ContentType, id: string): Promise<WriteResult> {
  const collection = collectionOf(type);
  return adminWrite(actorId, async (tx, actor) => {
    const source = await readRecord(tx, collection, id);
    if (!source) throw notFound(collection.label.one);
    const fields = editableOf(collection, source);
    const title = titleOf(collection, source);
    const max = (collection.fields.shape[collection.titleField] as { maxLength?: number | null }).maxLength ?? 200;
    fields[collection.titleField] = `${title.slice(0, max - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
    // A copy is never published or active by surprise.
    if ('published' in fields) fields.published = false;
    if ('isActive' in fields) fields.isActive = false;
    if (collection.urlField) fields[collection.urlField] = await uniqueValue(tx, collection, `${String(fields[collection.urlField])}-copy`);
    const newId = await uniqueValue(tx, collection, collection.urlField ? String(fields[collection.urlField]) : `${id}-copy`);
    const ids = await collection.ids(tx);
    await collection.insert(tx, newId, (await storedFields(tx, collection, fields)).stored, 0);
    if (collection.ordered) {
      // Right after the original.
      const at = ids.indexOf(id) + 1;
      await collection.setOrder(tx, [...ids.slice(0, at), newId, ...ids.slice(at)]);
    }
    const after = await readRecord(tx, collection, newId);
    await record(tx, actor, collection, { action: 'create', entityId: newId, summary: `Duplicated ${collection.label.one} “${title}”`, after });
    return { id: newId, snapshot: after, tags: collection.tags };
  });
}

export async function deleteRecord(actorId: string | undefined, type: ContentType, id: string): Promise<WriteResult> {
  const collection = collectionOf(type);
  return adminWrite(actorId, async (tx, actor) => {
    const before = await readRecord(tx, collection, id);
    if (!before) throw notFound(collection.label.one);
    await collection.remove(tx, id);
    if (collection.ordered) await collection.setOrder(tx, (await collection.ids(tx)).filter((x) => x !== id));
    await record(tx, actor, collection, { action: 'delete', entityId: id, summary: `Deleted ${collection.label.one} “${titleOf(collection, before)}”`, before });
    return { id, snapshot: undefined, tags: collection.tags };
  });
}

/** The public order, all at once: `ids` must be every record of the type, each once. */
export async function reorderRecords(actorId: string | undefined, type: ContentType, ids: readonly string[]): Promise<WriteResult> {
  const collection = collectionOf(type);
  return adminWrite(actorId, async (tx, actor) => {
    const current = await collection.ids(tx);
    const same = ids.length === current.length && new Set(ids).size === ids.length && ids.every((x) => current.includes(x));
    if (!same) throw new ContentError('CONFLICT', `The ${collection.label.many} changed since this list was opened: reload it and reorder again.`);
    if (current.every((x, i) => x === ids[i])) return { id: '', snapshot: undefined, tags: [] };
    await collection.setOrder(tx, ids);
    await record(tx, actor, collection, {
      action: 'reorder',
      entityId: '*',
      summary: `Reordered the ${collection.label.many}`,
      before: { order: current },
      after: { order: ids },
    });
    return { id: '', snapshot: undefined, tags: collection.tags };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Revert (from the activity list)

const REVERTIBLE = new Set(['create', 'update', 'delete', 'reorder']);

export function isRevertible(entry: Pick<ActivityRow, 'action' | 'entityType'>): boolean {
  if (entry.entityType === POLICY_ENTITY_TYPE) return entry.action === 'update';
  return REVERTIBLE.has(entry.action) && (CONTENT_TYPES as readonly string[]).includes(entry.entityType);
}

const changedSince = (label: string) =>
  new ContentError('CONFLICT', `This ${label} changed again after that entry: revert the later changes first, newest first.`);

/** Undoes one content change, if nothing changed the record since; the revert is an entry of its own. */
export async function revertChange(actorId: string | undefined, activityId: string): Promise<WriteResult> {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const entry = await findActivity(activityId, tx);
    if (!entry) throw new ContentError('NOT_FOUND', 'This activity entry does not exist.');
    if (!isRevertible(entry)) throw new ContentError('CONFLICT', 'This kind of change cannot be reverted from here.');
    if (entry.entityType === POLICY_ENTITY_TYPE) {
      const { tags } = await revertPolicyChange(tx, actor, entry);
      return { id: entry.entityId, snapshot: undefined, tags };
    }
    const collection = collectionOf(entry.entityType as ContentType);
    const before = entry.before as Snapshot | null;
    const after = entry.after as Snapshot | null;
    const change = (summary: string, b: unknown, a: unknown): Change => ({ action: 'revert', entityId: entry.entityId, summary, before: b, after: a, revertOf: entry.id });

    if (entry.action === 'reorder') {
      const current = await collection.ids(tx);
      if (stableJson(current) !== stableJson((after as unknown as { order: string[] }).order)) throw changedSince(collection.label.many);
      const restored = (before as unknown as { order: string[] }).order;
      await collection.setOrder(tx, restored);
      await record(tx, actor, collection, change(`Reverted the reorder of the ${collection.label.many}`, { order: current }, { order: restored }));
      return { id: '', snapshot: undefined, tags: collection.tags };
    }

    const current = await readRecord(tx, collection, entry.entityId);
    if (entry.action === 'create') {
      if (!current) throw new ContentError('CONFLICT', `This ${collection.label.one} was already deleted.`);
      if (current.updatedAt !== after?.updatedAt) throw changedSince(collection.label.one);
      await collection.remove(tx, current.id);
      if (collection.ordered) await collection.setOrder(tx, (await collection.ids(tx)).filter((x) => x !== current.id));
      await record(tx, actor, collection, change(`Reverted the creation of “${titleOf(collection, current)}”`, current, null));
      return { id: current.id, snapshot: undefined, tags: collection.tags };
    }

    if (entry.action === 'delete') {
      if (!before) throw new ContentError('CONFLICT', 'This entry has nothing to restore.');
      if (current || (await collection.isTaken(tx, before.id))) throw new ContentError('CONFLICT', `A ${collection.label.one} with this URL name exists again: rename it first.`);
      const fields = editableOf(collection, before);
      if (collection.urlField && (await collection.isTaken(tx, String(fields[collection.urlField])))) {
        throw new ContentError('CONFLICT', `Another ${collection.label.one} now uses its ${collection.urlField}: change that first.`);
      }
      const { stored, tags } = await storedFields(tx, collection, fields);
      await collection.insert(tx, before.id, stored, 0, before);
      if (collection.ordered) {
        const ids = (await collection.ids(tx)).filter((x) => x !== before.id);
        const at = Math.min(Math.max(before.order, 0), ids.length);
        await collection.setOrder(tx, [...ids.slice(0, at), before.id, ...ids.slice(at)]);
      }
      const restored = await readRecord(tx, collection, before.id);
      await record(tx, actor, collection, change(`Restored deleted ${collection.label.one} “${titleOf(collection, before)}”`, null, restored));
      return { id: before.id, snapshot: restored, tags: withTags(collection.tags, tags) };
    }

    // update
    if (!before || !after) throw new ContentError('CONFLICT', 'This entry has nothing to restore.');
    if (!current || current.updatedAt !== after.updatedAt) throw changedSince(collection.label.one);
    const fields = editableOf(collection, before);
    if (before.id !== current.id) await checkNewId(tx, collection, current.id, before.id);
    await checkUrlField(tx, collection, fields, current.id);
    const { stored, tags } = await storedFields(tx, collection, fields);
    await collection.update(tx, current.id, stored, before.id !== current.id ? before.id : undefined);
    const restored = await readRecord(tx, collection, before.id);
    await keepOldPathWorking(tx, collection, current, restored);
    await record(tx, actor, collection, change(`Reverted changes to “${titleOf(collection, current)}”`, current, restored));
    return { id: before.id, snapshot: restored, tags: withTags(collection.tags, tags) };
  });
}
