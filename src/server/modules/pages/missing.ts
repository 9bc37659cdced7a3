/**
 * A detail page whose record is not there: if an admin renamed it, a 301 to where it lives now (old links
 * and search results keep working); otherwise the real 404 page.
 */
import type { AstroGlobal } from 'astro';
import { movedTo } from '../redirects/service';

export async function missingRecordResponse(astro: AstroGlobal): Promise<Response> {
  const to = await movedTo(astro.url.pathname);
  return to ? astro.redirect(to, 301) : astro.rewrite('/404');
}
