/**
 * Admin writes to the site-wide documents: the site texts, the landing page layout, the SEO entries, the
 * chat settings and the general settings.
 * Each write runs in one transaction that checks the acting admin, validates with the shared schema
 * (messages by field path), refuses a save based on an older version than the stored one (someone else
 * saved since the editor opened it), writes, and records the change in the activity log with the
 * document before and after. It returns the cache tags of the pages that show the document; the Action
 * invalidates them once the transaction has committed.
 */
import type { CacheTag } from '../../cache/tags';
import { db } from '../../db';
import { layoutFromConfig, type LandingLayout } from '../../../shared/landing';
import { SEO_EDITABLE_PAGES } from '../../../shared/page-seo';
import { EMPTY_SEO_ENTRY, type SeoEntry } from '../../../shared/seo';
import type { ChatSettings } from '../../../shared/chat';
import { GENERAL_SETTINGS_KEY, resolveGeneralSettings, type GeneralSettings } from '../../../shared/general-settings';
import { isDocumentType } from '../../../shared/site-documents';
import { resolveSiteContent, type SiteContent } from '../../../shared/site-content';
import { findActivity, insertActivity, type ActivityRow } from '../activity/repository';
import { lastSaveOf } from '../activity/service';
import { CHAT_SETTINGS_KEY, resolveChatSettings } from '../chat/settings';
import { ContentError, savedAtTime, type LastSave } from '../content/errors';
import { LANDING_CONFIG_KEY, SITE_CONTENT_KEY } from '../site/service';
import { requireAdmin, type Profile } from '../users/service';
import { chatSettingsDocument, DOCUMENT_KINDS, generalSettingsDocument, landingDocument, seoDocument, seoValueOf, siteContentDocument, type DocumentKind, type SeoValue } from './documents';
import { countContent, readConfigRow, readSeoRows, type Executor, type StoredRow } from './repository';
import { stableJson } from '../../../shared/stable-json';

export interface DocumentWriteResult {
  /** The document's key (app_config) or path (SEO). */
  id: string;
  /** The stored version now: what the editor sends with its next save. */
  version: string;
  tags: readonly CacheTag[];
}

/** The version an editor opens: the row's last change, or '' while the document was never saved. */
const versionOf = (row: { updatedAt: Date } | undefined) => row?.updatedAt.toISOString() ?? '';

/** Now, but always after the previous version, so two saves within a millisecond still differ. */
function nextVersion(previous: Date | undefined): Date {
  const now = new Date();
  return previous && now.getTime() <= previous.getTime() ? new Date(previous.getTime() + 1) : now;
}

const sentenceStart = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function conflict(kind: DocumentKind, id: string, by: LastSave | undefined): ContentError {
  const who = by ? `${by.email} saved ${kind.name(id)} at ${savedAtTime(by)}` : `Someone saved ${kind.name(id)}`;
  return new ContentError('CONFLICT', `${who}, after you opened this page. Your changes are kept here: reload to see theirs, then apply yours again.`);
}

function adminWrite<T>(actorId: string | undefined, work: (tx: Executor, actor: Profile) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => work(tx, await requireAdmin(actorId, tx)));
}

/**
 * One save of one document. A save whose version is not the stored one is refused, unless what it sends
 * is exactly what is stored (a retried save whose first answer was lost): nothing is overwritten silently.
 * Without a version (only the chat and general settings allow it) the save applies to whatever is stored.
 */
async function saveDocument(kind: DocumentKind, actorId: string | undefined, id: string, version: string | undefined, input: unknown): Promise<DocumentWriteResult> {
  return adminWrite(actorId, async (tx, actor) => {
    const value = kind.parse(id, input);
    const current = await kind.read(tx, id, true);
    const unchanged = current !== undefined && stableJson(current.value) === stableJson(value);
    if (version !== undefined && versionOf(current) !== version && !unchanged) throw conflict(kind, id, await lastSaveOf(tx, kind.type, id));
    if (unchanged) return { id, version: versionOf(current), tags: [] };
    const at = nextVersion(current?.updatedAt);
    if (!(await kind.write(tx, id, value, at, current !== undefined))) throw conflict(kind, id, undefined);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'update',
      entityType: kind.type,
      entityId: id,
      summary: kind.summary(id, current?.value ?? null, value),
      before: current?.value ?? null,
      after: value,
      revertOf: null,
    });
    return { id, version: at.toISOString(), tags: kind.tags };
  });
}

export const saveSiteContent = (actorId: string | undefined, input: { version: string; content: unknown }) =>
  saveDocument(siteContentDocument, actorId, SITE_CONTENT_KEY, input.version, input.content);

export const saveLandingLayout = (actorId: string | undefined, input: { version: string; layout: unknown }) =>
  saveDocument(landingDocument, actorId, LANDING_CONFIG_KEY, input.version, input.layout);

/**
 * The chat widget's settings (docs/chat-api.md). `expectedUpdatedAt` is the version the editor opened ('' while
 * never saved); a caller without an editor (a script, a test setting the stage) may leave it out and saves
 * over whatever is stored — still checked, logged and revertible.
 */
export const saveChatSettings = (actorId: string | undefined, input: { value: unknown; expectedUpdatedAt?: string | undefined }) =>
  saveDocument(chatSettingsDocument, actorId, CHAT_SETTINGS_KEY, input.expectedUpdatedAt, input.value);

/**
 * The general settings (/admin/settings): the site's time zone and where prospects' replies go. As with the
 * chat settings, a caller without an editor (a script, a test setting the stage) may leave the version out.
 */
export const saveGeneralSettings = (actorId: string | undefined, input: { version?: string | undefined; settings: unknown }) =>
  saveDocument(generalSettingsDocument, actorId, GENERAL_SETTINGS_KEY, input.version, input.settings);

export const saveSeoEntry = (actorId: string | undefined, input: { path: string; version: string; fields: unknown }) =>
  saveDocument(seoDocument, actorId, input.path, input.version, input.fields);

// ---------------------------------------------------------------------------------------------------------
// Revert (the activity log's Revert button routes these entries here)

type Entry = Pick<ActivityRow, 'id' | 'action' | 'entityType' | 'entityId' | 'before' | 'after'>;

/** Whether an activity entry is a save of one of these documents (a revert is itself not reverted). */
export function isRevertibleDocumentEntry(entry: Pick<ActivityRow, 'action' | 'entityType'>): boolean {
  return entry.action === 'update' && isDocumentType(entry.entityType);
}

const kindOf = (entry: Pick<ActivityRow, 'entityType'>) => DOCUMENT_KINDS[entry.entityType as keyof typeof DOCUMENT_KINDS];

/** Why the entry's save cannot be undone now (the document is no longer what it left), or undefined. */
function changedSince(kind: DocumentKind, entry: Pick<Entry, 'entityId' | 'after'>, current: { value: unknown } | undefined): string | undefined {
  // Entries logged before a field was added lack it: compared as the document reads today (kind.asRead).
  if (stableJson(current?.value ?? null) === stableJson(entry.after == null ? null : kind.asRead(entry.after))) return undefined;
  return `${sentenceStart(kind.name(entry.entityId))} changed again after that entry: revert the later changes first, newest first.`;
}

/**
 * Puts back the document as it was before the entry's save, if nothing changed it since (else CONFLICT:
 * revert the later changes first). A document that did not exist before is removed, so the site shows
 * its defaults again. The revert is an entry of its own.
 */
export async function revertDocumentChange(actorId: string | undefined, entry: Entry): Promise<DocumentWriteResult> {
  return adminWrite(actorId, async (tx, actor) => {
    if (!isRevertibleDocumentEntry(entry)) throw new ContentError('CONFLICT', 'This kind of change cannot be reverted from here.');
    const kind = kindOf(entry);
    const id = entry.entityId;
    const current = await kind.read(tx, id, true);
    const refusal = changedSince(kind, entry, current);
    if (refusal) throw new ContentError('CONFLICT', refusal);
    // As the document reads today: a part it no longer holds is left out (and the entry says so).
    const restored = entry.before == null ? null : kind.asRead(entry.before);
    const at = nextVersion(current?.updatedAt);
    if (restored === null) await kind.remove(tx, id);
    else if (!(await kind.write(tx, id, restored, at, current !== undefined))) throw conflict(kind, id, undefined);
    await insertActivity(tx, {
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'revert',
      entityType: kind.type,
      entityId: id,
      summary: `Reverted a change to ${kind.name(id)}${restored === null ? ' (back to the defaults)' : (kind.revertNote?.(entry.before) ?? '')}`,
      before: current?.value ?? null,
      after: restored,
      revertOf: entry.id,
    });
    return { id, version: restored === null ? '' : at.toISOString(), tags: kind.tags };
  });
}

/**
 * For the activity page: of these entries, the document saves that cannot be reverted now, each with the
 * message the revert itself would refuse with. Read without locks: the revert checks again under lock.
 */
export async function documentRevertRefusals(entries: readonly Entry[]): Promise<Map<string, string>> {
  const saves = entries.filter(isRevertibleDocumentEntry);
  const current = new Map<string, Promise<StoredRow<unknown> | undefined>>();
  const readOnce = (kind: DocumentKind, id: string) => {
    const key = `${kind.type}\u0000${id}`;
    if (!current.has(key)) current.set(key, kind.read(db(), id));
    return current.get(key)!;
  };
  const refusals = new Map<string, string>();
  for (const entry of saves) {
    const kind = kindOf(entry);
    const refusal = changedSince(kind, entry, await readOnce(kind, entry.entityId));
    if (refusal) refusals.set(entry.id, refusal);
  }
  return refusals;
}

/**
 * The activity entry `id` when it records a change of one of these documents, for the activity log's
 * Revert Action to route here (content records go to the content engine's revert). Read outside the
 * revert's transaction: revertDocumentChange checks the acting admin and, under lock, that the document
 * is still what the entry left.
 */
export async function documentActivityEntry(id: string): Promise<Entry | undefined> {
  const entry = await findActivity(id);
  return entry && isDocumentType(entry.entityType) ? entry : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Reads for the admin pages

export async function siteContentForEditor(): Promise<{ content: SiteContent; version: string }> {
  const row = await readConfigRow(db(), SITE_CONTENT_KEY);
  return { content: resolveSiteContent(row?.value), version: versionOf(row) };
}

export async function chatSettingsForEditor(): Promise<{ settings: ChatSettings; version: string }> {
  const row = await readConfigRow(db(), CHAT_SETTINGS_KEY);
  return { settings: resolveChatSettings(row?.value), version: versionOf(row) };
}

export async function generalSettingsForEditor(): Promise<{ settings: GeneralSettings; version: string }> {
  const row = await readConfigRow(db(), GENERAL_SETTINGS_KEY);
  return { settings: resolveGeneralSettings(row?.value), version: versionOf(row) };
}

export async function landingLayoutForEditor(): Promise<{ layout: LandingLayout; version: string }> {
  const row = await readConfigRow(db(), LANDING_CONFIG_KEY);
  return { layout: layoutFromConfig(row?.value), version: versionOf(row) };
}

/** The form's view of an entry: dates as ISO instants, '' for none. */
const seoFormOf = (value: SeoValue): SeoEntry => ({
  ...value,
  siteNameAfterTitle: value.siteNameAfterTitle ?? null,
  // An imported entry may carry another Open Graph type; the head treats anything but "article" as "website".
  type: value.type === 'article' ? 'article' : 'website',
  publishedTime: value.publishedTime ?? '',
  modifiedTime: value.modifiedTime ?? '',
});

export interface SeoEditorEntry {
  fields: SeoEntry;
  version: string;
  /** Whether anything is stored for the path (else the page's own values apply). */
  stored: boolean;
}

/** Every page /admin/seo edits, with its stored entry (or an empty one). */
export async function seoEntriesForEditor(): Promise<Map<string, SeoEditorEntry>> {
  const rows = await readSeoRows(SEO_EDITABLE_PAGES.map((p) => p.path));
  return new Map(
    SEO_EDITABLE_PAGES.map(({ path }) => {
      const row = rows.get(path);
      return [path, row ? { fields: seoFormOf(seoValueOf(row.value)), version: versionOf(row), stored: true } : { fields: { ...EMPTY_SEO_ENTRY }, version: '', stored: false }];
    }),
  );
}

export const contentCounts = () => countContent();
