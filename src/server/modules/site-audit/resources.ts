/**
 * The files the home page loads, weighed: a GET whose bytes are counted (HEAD is often wrong or refused),
 * at most maxResources of them in document order, on any host (a site's CDN files count for its weight;
 * another host's failure is just recorded). A file announced above the size limit is not read at all.
 */
import { CRAWL_STEPS, startedOnly, type CrawlContext } from './crawl-context';
import type { CrawledPage } from './pages';
import type { FetchedResource, ResourceKind } from './snapshot';

/** What a browser asks for each kind: servers pick image formats by it. */
const ACCEPT: Record<ResourceKind, string> = {
  image: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  style: 'text/css,*/*;q=0.1',
  script: '*/*',
  font: '*/*',
  other: '*/*',
};

export async function weighResources(ctx: CrawlContext, home: CrawledPage): Promise<{ resources: FetchedResource[]; resourcesSeen: number }> {
  const references = home.references?.resources ?? [];
  const chosen = references.slice(0, ctx.limits.maxResources);
  const runs = chosen.map(({ url, kind, inHead }) =>
    ctx.budget.run(async (): Promise<FetchedResource> => {
      const { response } = await ctx.fetch({ url, accept: ACCEPT[kind], maxBodyBytes: ctx.limits.maxResourceBytes, body: 'count' });
      return { ...response, kind, pageUrl: home.page.url, inHead };
    }),
  );
  const resources = await startedOnly(ctx, CRAWL_STEPS.resources, runs, { one: 'file', many: 'files', verb: 'weighed' });
  return { resources, resourcesSeen: references.length };
}
