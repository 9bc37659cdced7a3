/**
 * The site's own links and form actions, asked whether they answer: HEAD, then GET when the server does
 * not do HEAD (405, 501); never a POST, so no form is ever submitted. A link to a page the crawl already
 * fetched takes that page's answer instead of asking again.
 */
import { failedAfterRedirect } from './checks/context';
import { CRAWL_STEPS, startedOnly, type CrawlContext } from './crawl-context';
import { sameSite } from './discover';
import { PAGE_ACCEPT, type CrawledPage } from './pages';
import type { CheckedLink, FetchedResponse } from './snapshot';

const NO_HEAD = new Set([405, 501]);

async function askLink(ctx: CrawlContext, url: string): Promise<FetchedResponse> {
  const ask = async (method: 'HEAD' | 'GET') => (await ctx.fetch({ url, method, accept: PAGE_ACCEPT, maxBodyBytes: 0, body: 'ignore' })).response;
  const head = await ask('HEAD');
  return NO_HEAD.has(head.status) ? ask('GET') : head;
}

const linkOf = (pageUrl: string, url: string, answer: FetchedResponse): CheckedLink => ({
  pageUrl,
  url,
  status: answer.status,
  failure: answer.failure,
  redirectedTo: failedAfterRedirect(answer) ? answer.redirects.at(-1)?.location : undefined,
});

/** The site's own links of the pages, at most `maxLinks` of them asked; `linksSeen` counts them all. */
export async function checkLinks(ctx: CrawlContext, pages: CrawledPage[], siteUrl: string): Promise<{ links: CheckedLink[]; linksSeen: number }> {
  const answered = new Map<string, FetchedResponse>();
  for (const { page } of pages) answered.set(page.requestedUrl, page).set(page.url, page);

  const targets = new Map<string, string>();
  for (const { page, references } of pages) {
    for (const url of [...(references?.links.map((link) => link.url) ?? []), ...(references?.formActions ?? [])]) {
      if (!targets.has(url) && sameSite(url, siteUrl)) targets.set(url, page.url);
    }
  }
  const chosen = [...targets].slice(0, ctx.limits.maxLinks);
  const runs = chosen.map(([url, pageUrl]) => {
    const known = answered.get(url);
    return known ? Promise.resolve(linkOf(pageUrl, url, known)) : ctx.budget.run(async () => linkOf(pageUrl, url, await askLink(ctx, url)));
  });
  const links = await startedOnly(ctx, CRAWL_STEPS.links, runs, { one: 'link', many: 'links', verb: 'checked' });
  return { links, linksSeen: targets.size };
}
