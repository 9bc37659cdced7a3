/**
 * What the admin overview (/admin) and the backup page show about the site's content: real counts only,
 * and what needs the owner's attention (src/shared/overview-attention.ts). Visits, sign-ups and leads
 * come with the analytics and leads modules, not from here.
 */
import { attentionItems, type AttentionItem } from '../../../shared/overview-attention';
import { senderMailbox } from '../../mail';
import { getGeneralSettings } from '../settings/general';
import { getSiteContent } from '../site/service';
import { countContent, type ContentCounts } from './repository';

export type { ContentCounts } from './repository';

export const contentCounts = (): Promise<ContentCounts> => countContent();

export async function overview(): Promise<{ counts: ContentCounts; attention: AttentionItem[] }> {
  const [counts, site, settings, sender] = await Promise.all([countContent(), getSiteContent(), getGeneralSettings(), senderMailbox()]);
  return { counts, attention: attentionItems({ ...counts, site, mail: { sender, replyTo: settings.replyTo }, timeZoneChosen: settings.timeZone !== null }) };
}
