/**
 * The page views counted since the last flush, added up per day in memory (decision 014; days of the site's
 * time zone, decision 032): a beacon costs a few map updates, the database sees one transaction every 2 s
 * whatever the traffic. Bounded: past MAX_BUFFERED_KEYS distinct keys (paths, sources, visitor hashes) a
 * view is dropped rather than let memory grow while the database is unreachable.
 */
import type { ClassifiedView, DeviceClass } from '../../../shared/analytics';
import { OTHER } from '../../../shared/utm';

/** Distinct keys held at most (a few MB); far above what 2 s of real traffic produces. */
export const MAX_BUFFERED_KEYS = 200_000;

export interface SourceKey {
  referrerHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

export interface DayCounts {
  views: number;
  visits: number;
  pages: Map<string, number>;
  /** Keyed by the JSON of [referrerHost, utmSource, utmMedium, utmCampaign]. */
  sources: Map<string, number>;
  devices: Map<DeviceClass, number>;
  /** The day's visitor hashes seen since the last flush (each added to the table once). */
  visitors: Set<string>;
}

const emptyDay = (): DayCounts => ({ views: 0, visits: 0, pages: new Map(), sources: new Map(), devices: new Map(), visitors: new Set() });

const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);

export const sourceKeyOf = (s: SourceKey) => JSON.stringify([s.referrerHost, s.utmSource, s.utmMedium, s.utmCampaign]);

export function sourceOfKey(key: string): SourceKey {
  const [referrerHost, utmSource, utmMedium, utmCampaign] = JSON.parse(key) as string[];
  return { referrerHost: referrerHost!, utmSource: utmSource!, utmMedium: utmMedium!, utmCampaign: utmCampaign! };
}

/**
 * The source a visit past the day's cap is counted under: "other", keeping "other" as its campaign when it
 * had one, so the campaigns table shows that bucket too.
 */
export const otherSourceOf = (s: SourceKey): SourceKey => ({ referrerHost: '', utmSource: OTHER, utmMedium: '', utmCampaign: s.utmCampaign ? OTHER : '' });

/**
 * Buffered visits per source key → the same, with sources the day does not have yet (`stored`) kept only
 * while the day holds fewer than `max`; the rest are added to the "other" rows. The most visited new
 * sources take the room left (ties by key: every process decides alike).
 */
export function capSources(buffered: ReadonlyMap<string, number>, stored: ReadonlySet<string>, max: number): Map<string, number> {
  const isOther = (key: string) => sourceOfKey(key).utmSource === OTHER;
  let room = max - [...stored].filter((key) => !isOther(key)).length;
  const out = new Map<string, number>();
  const byVisits = [...buffered].sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0));
  for (const [key, visits] of byVisits) {
    let target = key;
    if (!stored.has(key) && !isOther(key)) {
      if (room > 0) room--;
      else target = sourceKeyOf(otherSourceOf(sourceOfKey(key)));
    }
    add(out, target, visits);
  }
  return out;
}

export class ViewBuffer {
  private days = new Map<string, DayCounts>();
  private keys = 0;

  get isEmpty() {
    return this.days.size === 0;
  }

  /** Adds one view; false (nothing added) when the buffer is full. */
  add(view: ClassifiedView, visitorHash: string): boolean {
    const day = this.days.get(view.day);
    const newKeys =
      (day?.pages.has(view.path) ? 0 : 1) +
      (day?.visitors.has(visitorHash) ? 0 : 1) +
      (view.source && !day?.sources.has(sourceKeyOf(view.source)) ? 1 : 0);
    if (this.keys + newKeys > MAX_BUFFERED_KEYS) return false;
    this.keys += newKeys;
    const counts = day ?? emptyDay();
    if (!day) this.days.set(view.day, counts);
    counts.views += 1;
    add(counts.pages, view.path, 1);
    add(counts.devices, view.device, 1);
    counts.visitors.add(visitorHash);
    if (view.source) {
      counts.visits += 1;
      add(counts.sources, sourceKeyOf(view.source), 1);
    }
    return true;
  }

  /** Everything counted so far, leaving the buffer empty. */
  take(): Map<string, DayCounts> {
    const taken = this.days;
    this.days = new Map();
    this.keys = 0;
    return taken;
  }

  /**
   * Puts back counts a failed flush could not write, so the next flush tries again. Returns the number of
   * views dropped because the buffer would outgrow its bound.
   */
  restore(taken: Map<string, DayCounts>): number {
    let dropped = 0;
    for (const [dayKey, old] of taken) {
      const keys = old.pages.size + old.sources.size + old.visitors.size;
      if (this.keys + keys > MAX_BUFFERED_KEYS) {
        dropped += old.views;
        continue;
      }
      const counts = this.days.get(dayKey) ?? emptyDay();
      this.days.set(dayKey, counts);
      counts.views += old.views;
      counts.visits += old.visits;
      for (const [k, n] of old.pages) add(counts.pages, k, n);
      for (const [k, n] of old.sources) add(counts.sources, k, n);
      for (const [k, n] of old.devices) add(counts.devices, k, n);
      for (const h of old.visitors) counts.visitors.add(h);
      // Counted as if all were new: the bound errs on the side of dropping, never of growing.
      this.keys += keys;
    }
    return dropped;
  }
}
