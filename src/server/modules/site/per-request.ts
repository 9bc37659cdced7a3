/**
 * Site texts for one request. The page, the navbar and the footer all need them; memoising per Request
 * turns three reads of the same row into one (or none, when the page already read them).
 */
import type { SiteContent } from '../../../shared/site-content';
import { getSiteContent } from './service';

const perRequest = new WeakMap<Request, Promise<SiteContent>>();

/** getSiteContent() once per request (it never rejects: a failed read falls back to the defaults). */
export function siteContentFor(request: Request): Promise<SiteContent> {
  let content = perRequest.get(request);
  if (!content) {
    content = getSiteContent();
    perRequest.set(request, content);
  }
  return content;
}

/** A page that read the site texts itself hands them to the navbar and footer of the same render. */
export function primeSiteContent(request: Request, content: SiteContent) {
  perRequest.set(request, Promise.resolve(content));
}
