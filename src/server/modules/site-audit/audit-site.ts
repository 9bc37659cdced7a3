/** One website audit, start to end: crawl, judge, score, and what is kept of what was fetched. */
import { runChecks } from './checks';
import { crawlSite, type CrawlOptions } from './crawl';
import type { AuditFindings } from './findings';
import { scoreFindings } from './scoring';
import { withoutBodies, type StoredSnapshot } from './stored-snapshot';

export interface SiteAuditResult {
  findings: AuditFindings;
  fetched: StoredSnapshot;
}

export async function auditSite(url: string, options: CrawlOptions): Promise<SiteAuditResult> {
  const snapshot = await crawlSite(url, options);
  return { findings: scoreFindings(runChecks(snapshot)), fetched: withoutBodies(snapshot) };
}
