/** Site-wide documents: the landing-page block configuration and the editable site texts. */
import { blocksFromConfig, resolveBlockOrder, type LandingBlock } from '../../../shared/landing';
import { resolveSiteContent, type SiteContent } from '../../../shared/site-content';
import { logger } from '../../logger';
import { readConfigDocument } from './repository';

export const LANDING_CONFIG_KEY = 'landingPage';
export const SITE_CONTENT_KEY = 'siteContent';

/** Blocks to render in order. A missing or unreadable config falls back to the default order (logged only). */
export async function getLandingBlocks(): Promise<LandingBlock[]> {
  try {
    return blocksFromConfig(await readConfigDocument(LANDING_CONFIG_KEY));
  } catch (err) {
    logger.error({ err }, 'landing page config failed to load; using the default order');
    return resolveBlockOrder(undefined);
  }
}

/** The stored site texts over the defaults; rejects when the read fails. */
export async function readSiteContent(): Promise<SiteContent> {
  return resolveSiteContent(await readConfigDocument(SITE_CONTENT_KEY));
}

/** `read`: where the texts come from (public pages pass their memoized read). Never rejects. */
export async function getSiteContent(read = readSiteContent): Promise<SiteContent> {
  try {
    return await read();
  } catch (err) {
    logger.error({ err }, 'site content failed to load; using the defaults');
    return resolveSiteContent(undefined);
  }
}
