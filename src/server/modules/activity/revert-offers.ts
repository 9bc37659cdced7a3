/**
 * Which entries of an activity page offer "Revert", and why an entry that could be reverted cannot be now.
 * Every content or settings change is revertible through the one Action (admin.activity.revert): content
 * records and policies by the content engine, the site-wide documents (site texts, landing page layout,
 * SEO, chat settings) by the site-document engine. The entries those engines take are offered here; a
 * policy or document change the site has moved on from (a later change of the same document would be
 * overwritten) is not, and its row says why with the message the revert itself would refuse with.
 * Content records keep the button either way: whether one changed since is checked when it is pressed.
 */
import { isRevertible } from '../content/service';
import { policyRevertRefusals } from '../policies/service';
import { documentRevertRefusals, isRevertibleDocumentEntry } from '../site-admin/service';
import type { ActivityRow } from './repository';
import { latestChangeOf } from './service';
import { db } from '../../db';

type Entry = Pick<ActivityRow, 'id' | 'action' | 'entityType' | 'entityId' | 'before' | 'after'>;

export type RevertOffer =
  | { offered: true }
  /** `latestEntryId`: the newest change of the same document, when it is another entry (a link to it). */
  | { offered: false; reason: string; latestEntryId: string | undefined };

/**
 * The offer for each entry of `entries` that is a content or settings change not reverted yet (an entry
 * without an offer gets no button: it is of another kind, a revert itself, or already reverted).
 */
export async function revertOffers(entries: readonly Entry[], revertedBy: ReadonlyMap<string, string>): Promise<Map<string, RevertOffer>> {
  const open = entries.filter((e) => !revertedBy.has(e.id) && (isRevertible(e) || isRevertibleDocumentEntry(e)));
  const [documents, policies] = await Promise.all([documentRevertRefusals(open), policyRevertRefusals(open)]);
  const offers = new Map<string, RevertOffer>();
  const latest = new Map<string, Promise<{ id: string } | undefined>>();
  for (const entry of open) {
    const reason = documents.get(entry.id) ?? policies.get(entry.id);
    if (!reason) {
      offers.set(entry.id, { offered: true });
      continue;
    }
    const key = `${entry.entityType}\u0000${entry.entityId}`;
    if (!latest.has(key)) latest.set(key, latestChangeOf(db(), entry.entityType, entry.entityId));
    const newest = await latest.get(key)!;
    offers.set(entry.id, { offered: false, reason, latestEntryId: newest && newest.id !== entry.id ? newest.id : undefined });
  }
  return offers;
}
