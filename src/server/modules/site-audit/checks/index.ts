/**
 * All checks of the website audit (issue 22), judged from a SiteSnapshot without any network. The order of
 * categories and checks is fixed, and ids never change: notes and hidden findings refer to them across runs.
 */
import type { CheckResult } from '../findings';
import type { SiteSnapshot } from '../snapshot';
import { createAuditContext, type AuditContext } from './context';
import { LEADS_CHECKS, leadsChecks } from './leads';
import { LINKS_CHECKS, linksChecks } from './links';
import { MOBILE_CHECKS, mobileChecks } from './mobile';
import { SEARCH_CHECKS, searchChecks } from './search';
import { SECURITY_CHECKS, securityChecks } from './security';
import { SPEED_CHECKS, speedChecks } from './speed';

const CATEGORY_RUNNERS: readonly ((ctx: AuditContext) => CheckResult[])[] = [
  securityChecks,
  speedChecks,
  searchChecks,
  mobileChecks,
  leadsChecks,
  linksChecks,
];

/** Every check id, in report order. */
export const CHECK_IDS: readonly string[] = [SECURITY_CHECKS, SPEED_CHECKS, SEARCH_CHECKS, MOBILE_CHECKS, LEADS_CHECKS, LINKS_CHECKS].flatMap(
  (definitions) => definitions.map((definition) => definition.id),
);

/** How many checks an audit runs, for any text that names the number (never written by hand). */
export const CHECK_COUNT = CHECK_IDS.length;

export function runChecks(snapshot: SiteSnapshot): CheckResult[] {
  const ctx = createAuditContext(snapshot);
  return CATEGORY_RUNNERS.flatMap((run) => run(ctx));
}
