/**
 * Per-address limit on counted page views, in memory (decision 014): a beacon must not cost a database
 * round trip, and an over-count within one process's window is harmless (the limit only stops a flood from
 * inflating the numbers). Fixed windows shared by all addresses: when a window ends, every count restarts,
 * so memory holds at most the addresses of one window (and is cleared outright past MAX_TRACKED).
 */
import type { RateDecision, RateRule } from '../rate-limit/service';

const MAX_TRACKED = 100_000;

export class AddressRateLimit {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(private readonly rule: RateRule) {}

  consume(address: string, now = Date.now()): RateDecision {
    const windowMs = this.rule.windowSeconds * 1000;
    const windowStart = now - (now % windowMs);
    if (windowStart !== this.windowStart || (this.counts.size >= MAX_TRACKED && !this.counts.has(address))) {
      this.windowStart = windowStart;
      this.counts.clear();
    }
    const count = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, count);
    if (count <= this.rule.max) return { ok: true, remaining: this.rule.max - count };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
  }

  /** Tests: start every address afresh. */
  reset() {
    this.counts.clear();
  }
}
