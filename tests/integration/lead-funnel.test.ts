/**
 * The overview's lead funnel (src/server/modules/leads/funnel.ts) against counts made directly from the
 * rows: the people whose first lead event (report openings are no lead) fell in the period, each counted in
 * every step up to the furthest reached (audit requested, report opened, call booked, client), by the first
 * event's source (UTM source, else the referring host) and campaign; the team left out. PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadEvents, leadPeople } from '../../src/server/db/schema';
import { funnelRows, leadFunnel } from '../../src/server/modules/leads/funnel';
import { FUNNEL_STEPS, funnelTotal, type FunnelCounts } from '../../src/shared/lead-funnel';
import { OTHER } from '../../src/shared/utm';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
beforeEach(async () => {
  h = await createAuthHarness();
  await h.signUpVerified({ email: 'owner@example.com' });
});
afterEach(() => h.close());

const DAY = 86_400_000;
const start = new Date('2026-11-01T00:00:00Z');
const end = new Date('2026-12-01T00:00:00Z');
const KINDS = ['audit-request', 'chat-lead', 'sign-up', 'call-booked', 'report-opened'] as const;
const SOURCES = [
  { utmSource: 'newsletter', utmCampaign: 'winter', referrer: '' },
  { utmSource: 'linkedin', utmCampaign: '', referrer: '' },
  { utmSource: '', utmCampaign: '', referrer: 'https://www.search.example/q?x=1' },
  { utmSource: '', utmCampaign: '', referrer: '' },
];

/** 60 people over two months (some only before the period), the admin's own events, report openings alone. */
async function seed() {
  const rows: (typeof leadEvents.$inferInsert)[] = [];
  let seedValue = 7;
  const random = () => ((seedValue = (seedValue * 48271) % 2147483647) / 2147483647);
  for (let p = 0; p < 60; p++) {
    const email = `Person${p}@Example.com`;
    const events = 1 + Math.floor(random() * 4);
    for (let e = 0; e < events; e++) {
      const at = new Date(start.getTime() - 20 * DAY + Math.floor(random() * 50 * DAY));
      const kind = KINDS[Math.floor(random() * KINDS.length)]!;
      rows.push({ id: crypto.randomUUID(), at, kind, email: e % 2 ? email.toLowerCase() : email, ...SOURCES[Math.floor(random() * SOURCES.length)]! });
    }
  }
  rows.push({ id: crypto.randomUUID(), at: new Date(start.getTime() + DAY), kind: 'audit-request', email: 'owner@example.com', utmSource: 'newsletter', utmCampaign: 'winter' });
  await h.handle.db.insert(leadEvents).values(rows);
  await h.handle.db.insert(leadPeople).values([
    { email: 'person3@example.com', stage: 'client' },
    { email: 'person4@example.com', stage: 'call-booked' },
    { email: 'person5@example.com', stage: 'contacted' },
  ]);
}

/** The same numbers, counted from plain rows in JavaScript. */
async function direct() {
  const { rows } = (await h.handle.db.execute(sql`select lower(email) as email, kind, at, utm_source, utm_campaign, referrer from lead_events where email <> '' and lower(email) not in (select email from users where role = 'admin') order by at, id`)) as unknown as {
    rows: { email: string; kind: string; at: string | Date; utm_source: string; utm_campaign: string; referrer: string }[];
  };
  const stages = new Map((await h.handle.db.select().from(leadPeople)).map((p) => [p.email, p.stage]));
  const people = new Map<string, { first?: (typeof rows)[number]; kinds: Set<string> }>();
  for (const r of rows) {
    const person = people.get(r.email) ?? { kinds: new Set<string>() };
    person.kinds.add(r.kind);
    if (!person.first && r.kind !== 'report-opened') person.first = r;
    people.set(r.email, person);
  }
  const bySource = new Map<string, FunnelCounts>();
  const byCampaign = new Map<string, FunnelCounts>();
  for (const [email, p] of people) {
    const at = p.first ? new Date(p.first.at).getTime() : NaN;
    if (!(at >= start.getTime() && at < end.getTime())) continue;
    const stage = stages.get(email);
    const step = stage === 'client' ? 4 : stage === 'call-booked' || p.kinds.has('call-booked') ? 3 : p.kinds.has('report-opened') ? 2 : p.kinds.has('audit-request') ? 1 : 0;
    const counts: FunnelCounts = { leads: 1, audit: +(step >= 1), report: +(step >= 2), call: +(step >= 3), client: +(step >= 4) };
    const source = p.first!.utm_source || (p.first!.referrer ? new URL(p.first!.referrer).hostname : '');
    for (const [map, key] of [[bySource, source], [byCampaign, p.first!.utm_campaign]] as const) map.set(key, funnelTotal([map.get(key) ?? { leads: 0, audit: 0, report: 0, call: 0, client: 0 }, counts]));
  }
  return { bySource, byCampaign, total: funnelTotal([...bySource.values()]) };
}

describe('the lead funnel', () => {
  it('equals counts made directly from the rows, whole, by first source and by first campaign', async () => {
    await seed();
    const expected = await direct();
    const funnel = await leadFunnel({ start, end });
    expect(funnel.total).toEqual(expected.total);
    expect(funnel.total.leads).toBeGreaterThan(10);
    expect(Object.fromEntries(funnel.bySource.map((g) => [g.key, g.counts]))).toEqual(Object.fromEntries(expected.bySource));
    expect(Object.fromEntries(funnel.byCampaign.map((g) => [g.key, g.counts]))).toEqual(Object.fromEntries(expected.byCampaign));
    // Each step at most the one before it.
    for (let i = 1; i < FUNNEL_STEPS.length; i++) expect(funnel.total[FUNNEL_STEPS[i]!]).toBeLessThanOrEqual(funnel.total[FUNNEL_STEPS[i - 1]!]);
    // The admin's own audit request is no lead.
    expect((await funnelRows({ start, end })).some((r) => r.source === 'newsletter')).toBe(true);
  });

  it('counts a person by their first lead ever: one who was a lead before the period is not new in it', async () => {
    await h.handle.db.insert(leadEvents).values([
      { id: crypto.randomUUID(), at: new Date(start.getTime() - DAY), kind: 'chat-lead', email: 'old@example.com', utmSource: 'old' },
      { id: crypto.randomUUID(), at: new Date(start.getTime() + DAY), kind: 'call-booked', email: 'old@example.com', utmSource: 'new' },
      // A report opening alone makes nobody a lead; the audit request after it does, from its own source.
      { id: crypto.randomUUID(), at: new Date(start.getTime() + DAY), kind: 'report-opened', email: 'late@example.com' },
      { id: crypto.randomUUID(), at: new Date(start.getTime() + 2 * DAY), kind: 'audit-request', email: 'late@example.com', utmSource: 'partner', utmCampaign: 'spring' },
    ]);
    const funnel = await leadFunnel({ start, end });
    expect(funnel.total).toEqual({ leads: 1, audit: 1, report: 1, call: 0, client: 0 });
    expect(funnel.bySource).toEqual([{ key: 'partner', counts: { leads: 1, audit: 1, report: 1, call: 0, client: 0 } }]);
    expect(funnel.byCampaign.map((g) => g.key)).toEqual(['spring']);
  });

  it('lists the eight sources with most leads and sums the rest as other sources', async () => {
    await h.handle.db.insert(leadEvents).values(
      Array.from({ length: 11 }, (_, i) => ({ id: crypto.randomUUID(), at: new Date(start.getTime() + DAY), kind: 'chat-lead', email: `s${i}@example.com`, utmSource: `source${String(i).padStart(2, '0')}` })),
    );
    const { bySource, total } = await leadFunnel({ start, end });
    expect(bySource).toHaveLength(9);
    expect(bySource.at(-1)).toEqual({ key: OTHER, counts: { leads: 3, audit: 0, report: 0, call: 0, client: 0 } });
    expect(funnelTotal(bySource.map((g) => g.counts))).toEqual(total);
  });
});
