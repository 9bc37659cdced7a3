/**
 * The lead funnel of the admin overview (issue 23, decision 048): the people who became leads in the period
 * (their first lead ever fell in it), and how far each got: an audit requested, its report opened, a call
 * booked, a client. A person counts in every step up to the furthest one reached, as CRM funnels count
 * stages (a call booked without an audit request has passed the audit steps), so each step is at most the
 * one before it and every conversion is at most 100%. Pure: no server imports.
 */
import { conversionRate } from './overview';
import { OTHER } from './utm';

export const FUNNEL_STEPS = ['leads', 'audit', 'report', 'call', 'client'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

export const FUNNEL_STEP_LABELS: Record<FunnelStep, string> = {
  leads: 'Leads',
  audit: 'Audit requested',
  report: 'Report opened',
  call: 'Call booked',
  client: 'Client',
};

export type FunnelCounts = Record<FunnelStep, number>;

export const emptyFunnel = (): FunnelCounts => ({ leads: 0, audit: 0, report: 0, call: 0, client: 0 });

/** How many groups (sources, campaigns) the overview lists; the rest are summed into one row. */
export const FUNNEL_TOP_GROUPS = 8;

/**
 * One counted row per group (the repository's), summed by `keyOf` into the top groups by leads and one
 * OTHER row (the same bucket the attribution uses past its daily cap of sources, so both read "Other").
 */
export function funnelGroups<T>(rows: readonly (T & FunnelCounts)[], keyOf: (row: T) => string, top = FUNNEL_TOP_GROUPS): { key: string; counts: FunnelCounts }[] {
  const byKey = new Map<string, FunnelCounts>();
  for (const row of rows) {
    const key = keyOf(row);
    byKey.set(key, funnelTotal([byKey.get(key) ?? emptyFunnel(), row]));
  }
  const sorted = [...byKey].map(([key, counts]) => ({ key, counts })).sort((a, b) => b.counts.leads - a.counts.leads || a.key.localeCompare(b.key));
  const kept = sorted.filter((g) => g.key !== OTHER).slice(0, top);
  const rest = sorted.filter((g) => !kept.includes(g));
  return rest.length === 0 ? kept : [...kept, { key: OTHER, counts: funnelTotal(rest.map((g) => g.counts)) }];
}

/** The whole funnel: every row summed. */
export function funnelTotal(rows: readonly FunnelCounts[]): FunnelCounts {
  const total = emptyFunnel();
  for (const row of rows) for (const step of FUNNEL_STEPS) total[step] += row[step];
  return total;
}

export interface FunnelStepRow {
  key: 'visitors' | FunnelStep;
  label: string;
  people: number;
  /** The conversion from the step before; null for the first step, or when the step before had nobody. */
  fromPrevious: number | null;
}

/** The funnel as the overview reads it, from unique visitors on, each step with its conversion from the one before. */
export function funnelSteps(visitors: number, counts: FunnelCounts): FunnelStepRow[] {
  const steps: FunnelStepRow[] = [{ key: 'visitors', label: 'Unique visitors', people: visitors, fromPrevious: null }];
  for (const step of FUNNEL_STEPS) {
    steps.push({ key: step, label: FUNNEL_STEP_LABELS[step], people: counts[step], fromPrevious: conversionRate(counts[step], steps.at(-1)!.people) });
  }
  return steps;
}
