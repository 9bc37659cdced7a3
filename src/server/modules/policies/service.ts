/**
 * Admin edits of the policy pages (/privacy, /terms). One transaction per write: the acting admin is checked,
 * the HTML sanitized (the same sanitizeHtml the preview shows), the version the editor opened compared with
 * the stored one (a second admin saving later is told who saved; nothing is overwritten), the change recorded
 * in the activity log (entity 'policy', before/after). Saving exactly the built-in text restores the default:
 * the saved document is removed, so the page follows the site's name and contact address again.
 */
import { db } from '../../db';
import { CACHE_TAGS, type CacheTag } from '../../cache/tags';
import { sanitizeHtml } from '../../html/sanitize';
import { POLICY_ENTITY_TYPE, POLICY_TITLES, type PolicyKind } from '../../../shared/policies';
import { POLICY_EMPTY_MESSAGE } from '../../../shared/schemas/policy';
import { LIMITS } from '../../../shared/schemas/fields';
import { resolveSiteContent } from '../../../shared/site-content';
import { stripHtml } from '../../../shared/text';
import { insertActivity, type ActivityRow } from '../activity/repository';
import { lastSaveOf } from '../activity/service';
import { ContentError, conflict, invalid } from '../content/errors';
import type { Executor } from '../content/types';
import { defaultPolicy, policyFromStored, type PolicySite } from '../pages/service';
import { SITE_CONTENT_KEY } from '../site/service';
import { requireAdmin, type Profile } from '../users/service';
import { deletePolicyRow, lockPolicyRow, readConfigValue, readPolicyRow, writePolicyRow, type PolicyRow } from './repository';

export { POLICY_ENTITY_TYPE };
export const POLICY_KINDS = ['privacy', 'terms'] as const satisfies readonly PolicyKind[];

/** A policy as the activity log keeps it (before/after), and as a write returns it. */
export interface PolicySnapshot {
  html: string;
  /** The "Last updated" date the page shows (ISO). */
  updatedAt: string;
  /** The built-in text (nothing saved). */
  isDefault: boolean;
}

export interface PolicyForEditor extends PolicySnapshot {
  kind: PolicyKind;
  /** What the editor sends back to save: when the stored document was last written ('' when none is). */
  version: string;
  /** The built-in text for this site, for "Restore the default text". */
  defaultHtml: string;
}

export interface PolicyWriteResult {
  version: string;
  snapshot: PolicySnapshot;
  tags: readonly CacheTag[];
}

const labelOf = (kind: PolicyKind) => POLICY_TITLES[kind].toLowerCase();
const versionOf = (row: PolicyRow | undefined) => row?.updatedAt.toISOString() ?? '';

async function siteOf(tx: Executor): Promise<PolicySite> {
  return resolveSiteContent(await readConfigValue(tx, SITE_CONTENT_KEY));
}

function snapshotOf(kind: PolicyKind, row: PolicyRow | undefined, site: PolicySite): PolicySnapshot {
  const doc = policyFromStored(kind, row?.value, site);
  return { html: doc.html, updatedAt: doc.updatedAt.toISOString(), isDefault: doc.isDefault };
}

export function isPolicyKind(value: string): value is PolicyKind {
  return (POLICY_KINDS as readonly string[]).includes(value);
}

export async function getPolicyForEditor(kind: PolicyKind): Promise<PolicyForEditor> {
  const tx = db();
  const site = await siteOf(tx);
  const row = await readPolicyRow(tx, kind);
  return { kind, ...snapshotOf(kind, row, site), version: versionOf(row), defaultHtml: defaultPolicy(kind, site).html };
}

/** Text or a picture: markup alone (an empty paragraph, a stripped script) is an empty page. */
const hasContent = (html: string) => stripHtml(html) !== '' || /<img\s/i.test(html);

function record(tx: Executor, actor: Profile, kind: PolicyKind, summary: string, before: PolicySnapshot, after: PolicySnapshot, revertOf?: string): Promise<ActivityRow> {
  return insertActivity(tx, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: revertOf ? 'revert' : 'update',
    entityType: POLICY_ENTITY_TYPE,
    entityId: kind,
    summary,
    before,
    after,
    revertOf: revertOf ?? null,
  });
}

/**
 * Makes `target` the page's text: the default (the saved document removed) or a saved document dated now.
 * False when another transaction created the document in the meantime.
 */
async function store(tx: Executor, kind: PolicyKind, row: PolicyRow | undefined, html: string | undefined, site: PolicySite): Promise<{ version: string; snapshot: PolicySnapshot } | undefined> {
  if (html === undefined) {
    if (row) await deletePolicyRow(tx, kind);
    return { version: '', snapshot: snapshotOf(kind, undefined, site) };
  }
  const at = new Date();
  const value = { html, updatedAt: at.toISOString() };
  if (!(await writePolicyRow(tx, kind, value, at, row !== undefined))) return undefined;
  return { version: at.toISOString(), snapshot: { ...value, isDefault: false } };
}

export interface SavePolicyInput {
  /** The version the editor opened (PolicyForEditor.version). */
  version: string;
  html: string;
}

export async function savePolicy(actorId: string | undefined, kind: PolicyKind, input: SavePolicyInput): Promise<PolicyWriteResult> {
  return db().transaction(async (tx) => {
    const actor = await requireAdmin(actorId, tx);
    const label = labelOf(kind);
    const clean = sanitizeHtml(input.html);
    if (!hasContent(clean)) throw invalid({ html: POLICY_EMPTY_MESSAGE });
    if (clean.length > LIMITS.policyHtml) throw invalid({ html: `Must be at most ${LIMITS.policyHtml} characters` });

    const site = await siteOf(tx);
    const row = await lockPolicyRow(tx, kind);
    const before = snapshotOf(kind, row, site);
    const restoresDefault = clean === sanitizeHtml(defaultPolicy(kind, site).html);
    const unchanged = restoresDefault ? before.isDefault : !before.isDefault && before.html === clean;
    // Saved by someone else since this editor opened it: refuse, unless this exact text is what is shown
    // (a retried save whose first answer was lost).
    if (versionOf(row) !== input.version && !unchanged) {
      throw conflict(label, await lastSaveOf(tx, POLICY_ENTITY_TYPE, kind));
    }
    if (unchanged) return { version: versionOf(row), snapshot: before, tags: [] };

    const stored = await store(tx, kind, row, restoresDefault ? undefined : clean, site);
    if (!stored) throw conflict(label, undefined);
    await record(tx, actor, kind, restoresDefault ? `Restored the default ${label}` : `Updated the ${label}`, before, stored.snapshot);
    return { ...stored, tags: [CACHE_TAGS.policies] };
  });
}

/** The page shows the same text (its date aside: a revert re-dates a text without losing anything). */
const sameText = (a: PolicySnapshot, b: PolicySnapshot) => a.isDefault === b.isDefault && (a.isDefault || a.html === b.html);

const changedAgain = (kind: PolicyKind) => `The ${labelOf(kind)} changed again after that entry: revert the later changes first, newest first.`;

/** Undoes one policy change from the activity log, if the page has not changed since; recorded as a revert. */
export async function revertPolicyChange(tx: Executor, actor: Profile, entry: ActivityRow): Promise<PolicyWriteResult> {
  const kind = entry.entityId;
  const before = entry.before as PolicySnapshot | null;
  const after = entry.after as PolicySnapshot | null;
  if (!isPolicyKind(kind) || !before || !after) throw new ContentError('CONFLICT', 'This entry has nothing to restore.');
  const site = await siteOf(tx);
  const row = await lockPolicyRow(tx, kind);
  const current = snapshotOf(kind, row, site);
  if (!sameText(current, after)) throw new ContentError('CONFLICT', changedAgain(kind));
  const stored = await store(tx, kind, row, before.isDefault ? undefined : sanitizeHtml(before.html), site);
  if (!stored) throw new ContentError('CONFLICT', `The ${labelOf(kind)} changed again after that entry: reload and try again.`);
  await record(tx, actor, kind, `Reverted changes to the ${labelOf(kind)}`, current, stored.snapshot, entry.id);
  return { ...stored, tags: [CACHE_TAGS.policies] };
}

/**
 * For the activity page: of these policy changes, those that cannot be reverted now (the page shows
 * another text since), each with the message the revert itself would refuse with. Read without locks: the
 * revert checks again under lock.
 */
export async function policyRevertRefusals(entries: readonly Pick<ActivityRow, 'id' | 'action' | 'entityType' | 'entityId' | 'after'>[]): Promise<Map<string, string>> {
  const changes = entries.filter((e) => e.entityType === POLICY_ENTITY_TYPE && e.action === 'update' && isPolicyKind(e.entityId) && e.after);
  const refusals = new Map<string, string>();
  if (changes.length === 0) return refusals;
  const tx = db();
  const site = await siteOf(tx);
  const shown = new Map<PolicyKind, PolicySnapshot>();
  for (const entry of changes) {
    const kind = entry.entityId as PolicyKind;
    if (!shown.has(kind)) shown.set(kind, snapshotOf(kind, await readPolicyRow(tx, kind), site));
    if (!sameText(shown.get(kind)!, entry.after as PolicySnapshot)) refusals.set(entry.id, changedAgain(kind));
  }
  return refusals;
}
