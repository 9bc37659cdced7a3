/** What changed between two runs of one website's audit ("Run again" keeps the history). */
import type { AuditFindings, CheckStatus } from './findings';

export interface CheckChange {
  id: string;
  title: string;
  /** undefined: the check is new in the later run. */
  from: CheckStatus | undefined;
  to: CheckStatus;
}

export interface RunComparison {
  /** The overall score's change (later minus earlier); undefined when either has none. */
  scoreDelta: number | undefined;
  changes: CheckChange[];
}

export function compareFindings(earlier: AuditFindings, later: AuditFindings): RunComparison {
  const before = new Map(earlier.checks.map((c) => [c.id, c.status]));
  const changes = later.checks.filter((c) => before.get(c.id) !== c.status).map((c) => ({ id: c.id, title: c.title, from: before.get(c.id), to: c.status }));
  const scoreDelta = earlier.overall === undefined || later.overall === undefined ? undefined : later.overall - earlier.overall;
  return { scoreDelta, changes };
}
