/**
 * Site texts for one request. The page, the navbar and the footer all need them; memoising per Request
 * turns three lookups into one (or none, when the page already has them), and the lookup itself is the
 * public memo: one read per change of the texts, not one per render.
 */
import type { SiteContent } from '../../../shared/site-content';
import { publicSiteContent } from '../pages/public-content';
import { getSiteContent } from './service';

const perRequest = new WeakMap<Request, Promise<SiteContent>>();

/** The site texts once per request (never rejects: a failed read falls back to the defaults, not kept). */
export function siteContentFor(request: Request): Promise<SiteContent> {
  let content = perRequest.get(request);
  if (!content) {
    content = getSiteContent(publicSiteContent);
    perRequest.set(request, content);
  }
  return content;
}

/** A page that read the site texts itself hands them to the navbar and footer of the same render. */
export function primeSiteContent(request: Request, content: SiteContent) {
  perRequest.set(request, Promise.resolve(content));
}
