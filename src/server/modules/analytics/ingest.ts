/**
 * Counting page views (decision 014): a valid beacon becomes a classified view, on its day in the site's time
 * zone (decision 032), and a salted visitor hash, added to the in-memory buffer; every FLUSH_INTERVAL_MS (and
 * before the database closes, and whenever the overview asks through flushAnalytics) the buffer is written
 * in ONE transaction of increments, so several processes add up correctly. Only visitor hashes newly
 * inserted for a day raise that day's visitors. A failed flush is logged and its counts are kept for the
 * next try. No address is ever stored or logged: it only enters the hash.
 */
import { createHash } from 'node:crypto';
import { eq, getTableName, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { classifyView, MAX_SOURCES_PER_DAY, visitorHashInput, type VisitBeacon } from '../../../shared/analytics';
import { dayKeyIn, DEFAULT_TIME_ZONE } from '../../../shared/dates';
import { beforeDatabaseClose, db } from '../../db';
import type { Database } from '../../db/client';
import { analyticsDays, analyticsDevices, analyticsPages, analyticsSalts, analyticsSources, analyticsVisitors } from '../../db/schema';
import { logger } from '../../logger';
import { siteTimeZone } from '../site/time-zone';
import { countedPagePath } from '../site-routes/service';
import { capSources, sourceKeyOf, sourceOfKey, ViewBuffer, type DayCounts } from './buffer';
import { daySalt, forgetSaltsBefore } from './salt';

export const FLUSH_INTERVAL_MS = 2000;
const DAY_MS = 86_400_000;
/** Rows per multi-row statement: well under PostgreSQL's 65,535 bind parameters. */
const ROWS_PER_STATEMENT = 1000;

const buffer = new ViewBuffer();

export interface ViewInput {
  beacon: VisitBeacon;
  /** The client's address: hashed, never kept. */
  address: string;
  userAgent: string;
  /** This site's host as the visitor addressed it (part of the hash). */
  host: string;
  /** Every host name of this site: a referrer on one of them is an internal navigation. */
  siteHosts: readonly string[];
}

let lastDropLog = 0;
function logDropped(views: number, reason: string) {
  const now = Date.now();
  if (now - lastDropLog < 60_000) return;
  lastDropLog = now;
  logger.warn({ views }, `analytics: page views dropped, ${reason}`);
}

/** Counts one view (in memory until the next flush). False when the buffer is full and the view was dropped. */
export async function recordView(input: ViewInput, now: Date = new Date(), database: Database = db()): Promise<boolean> {
  const view = classifyView(input.beacon, input.siteHosts, now, await siteTimeZone());
  // Only the site's own pages are counted by name; any other path (a 404, an invented one) is "other".
  view.path = await countedPagePath(view.path);
  const salt = await daySalt(database, view.day);
  const visitorHash = createHash('sha256').update(visitorHashInput(salt, input.address, input.userAgent, input.host)).digest('base64url');
  if (!buffer.add(view, visitorHash)) {
    logDropped(1, 'the buffer is full (is the database reachable?)');
    return false;
  }
  startFlushing();
  return true;
}

let timer: NodeJS.Timeout | undefined;
function startFlushing() {
  if (timer) return;
  timer = setInterval(() => void flushAnalytics(), FLUSH_INTERVAL_MS);
  // Never what keeps a process alive: the server's shutdown flushes explicitly (below).
  timer.unref();
  beforeDatabaseClose(flushAnalytics);
}

/** Tests: stop the background flush (flushAnalytics still works). */
export function stopFlushing() {
  clearInterval(timer);
  timer = undefined;
}

let inFlight: Promise<void> | undefined;

/**
 * Writes every view counted before the call. One flush at a time: a caller arriving while one runs waits
 * for it, then flushes what came after. Never rejects (a failure is logged and retried on the next flush).
 */
export async function flushAnalytics(): Promise<void> {
  while (inFlight) await inFlight;
  inFlight = flushOnce().finally(() => {
    inFlight = undefined;
  });
  await inFlight;
}

async function flushOnce(now = new Date()): Promise<void> {
  if (buffer.isEmpty) return;
  const taken = buffer.take();
  try {
    await writeCounts(db(), taken, now, await siteTimeZone());
  } catch (err) {
    logger.error({ err }, 'analytics: flush failed, the counts are kept for the next try');
    const dropped = buffer.restore(taken);
    if (dropped > 0) logDropped(dropped, 'the buffer is full after failed flushes');
  }
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** `column + excluded.column`: an upsert that adds to what other flushes (other processes) wrote. */
const increment = (column: AnyPgColumn) => sql.raw(`"${getTableName(column.table)}"."${column.name}" + excluded."${column.name}"`);

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The day's new visitors: the hashes this insert actually added (a hash another flush added is not new). */
async function insertVisitors(tx: Tx, day: string, hashes: Set<string>): Promise<number> {
  let inserted = 0;
  for (const part of chunks([...hashes].sort())) {
    const rows = await tx
      .insert(analyticsVisitors)
      .values(part.map((visitorHash) => ({ day, visitorHash })))
      .onConflictDoNothing()
      .returning({ day: analyticsVisitors.day });
    inserted += rows.length;
  }
  return inserted;
}

/** The source keys stored for a day: at most MAX_SOURCES_PER_DAY and the two "other" rows. */
async function storedSourceKeys(tx: Tx, day: string): Promise<Set<string>> {
  const rows = await tx
    .select({
      referrerHost: analyticsSources.referrerHost,
      utmSource: analyticsSources.utmSource,
      utmMedium: analyticsSources.utmMedium,
      utmCampaign: analyticsSources.utmCampaign,
    })
    .from(analyticsSources)
    .where(eq(analyticsSources.day, day));
  return new Set(rows.map(sourceKeyOf));
}

async function writeDay(tx: Tx, day: string, counts: DayCounts) {
  const visitors = await insertVisitors(tx, day, counts.visitors);
  await tx
    .insert(analyticsDays)
    .values({ day, views: counts.views, visits: counts.visits, visitors })
    .onConflictDoUpdate({
      target: analyticsDays.day,
      set: { views: increment(analyticsDays.views), visits: increment(analyticsDays.visits), visitors: increment(analyticsDays.visitors) },
    });
  // The day's row is locked from here to the commit: another process's flush of the same day waits, so the
  // sources it finds below are all the day's and the cap holds across processes.
  const sources = capSources(counts.sources, await storedSourceKeys(tx, day), MAX_SOURCES_PER_DAY);
  // Rows in key order, in every process: two flushes at once lock them in the same order (no deadlock).
  for (const part of chunks([...counts.pages].sort(([a], [b]) => (a < b ? -1 : 1)))) {
    await tx
      .insert(analyticsPages)
      .values(part.map(([path, views]) => ({ day, path, views })))
      .onConflictDoUpdate({ target: [analyticsPages.day, analyticsPages.path], set: { views: increment(analyticsPages.views) } });
  }
  for (const part of chunks([...sources].sort(([a], [b]) => (a < b ? -1 : 1)))) {
    await tx
      .insert(analyticsSources)
      .values(part.map(([key, visits]) => ({ day, ...sourceOfKey(key), visits })))
      .onConflictDoUpdate({
        target: [analyticsSources.day, analyticsSources.referrerHost, analyticsSources.utmSource, analyticsSources.utmMedium, analyticsSources.utmCampaign],
        set: { visits: increment(analyticsSources.visits) },
      });
  }
  const devices = [...counts.devices].sort(([a], [b]) => (a < b ? -1 : 1));
  if (devices.length > 0) {
    await tx
      .insert(analyticsDevices)
      .values(devices.map(([device, views]) => ({ day, device, views })))
      .onConflictDoUpdate({ target: [analyticsDevices.day, analyticsDevices.device], set: { views: increment(analyticsDevices.views) } });
  }
}

/**
 * One transaction: every day's counts, then the salts and visitor hashes of days before yesterday (in the
 * site's zone, the zone the days are keyed in) are deleted (yesterday's stay, for the beacons of a page
 * opened just before midnight).
 */
export async function writeCounts(database: Database, days: Map<string, DayCounts>, now: Date = new Date(), timeZone: string = DEFAULT_TIME_ZONE) {
  const oldestKept = dayKeyIn(new Date(now.getTime() - DAY_MS), timeZone);
  await database.transaction(async (tx) => {
    for (const day of [...days.keys()].sort()) await writeDay(tx, day, days.get(day)!);
    await tx.delete(analyticsVisitors).where(lt(analyticsVisitors.day, oldestKept));
    await tx.delete(analyticsSalts).where(lt(analyticsSalts.day, oldestKept));
  });
  forgetSaltsBefore(oldestKept);
}
