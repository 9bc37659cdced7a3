/**
 * The rules that keep the site's mail from being turned against strangers (decision 057). Pure: the server
 * reads the data and the clock, these decide.
 *
 * - Mail to an address nobody confirmed carries none of the visitor's own words as the site's: a sequence's
 *   {{name}}, {{first_name}} and {{business}} are filled with neutral words until the address is confirmed.
 * - The automatic mails a visitor's form causes to such an address (the audit confirmation, sequence steps)
 *   are capped per address per day.
 * - An admin gets the first few lead notices of an hour one by one; the rest of the hour's come as one digest.
 */

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const NOTICE_WINDOW_MS = HOUR_MS;

/** What a sequence's person placeholders say while the address is unconfirmed: nothing the visitor typed. */
export const UNCONFIRMED_PERSON_VALUES = { name: 'there', first_name: 'there', business: 'your business' } as const;

type PersonValues = { name: string; first_name: string; business: string };

/** The person's placeholder values as an automatic mail may use them: their own once the address is confirmed. */
export function automaticMailValues<T extends PersonValues>(values: T, confirmed: boolean): T {
  return confirmed ? values : { ...values, ...UNCONFIRMED_PERSON_VALUES };
}

export type Room = { ok: true } | { ok: false; freesAt: Date };

/**
 * Whether one more mail fits `limit` per `windowMs` after the mails sent at `sent` (any order, older ones
 * ignored); when not, the moment the oldest one that counts leaves the window.
 */
export function roomIn(sent: readonly Date[], limit: number, now: Date, windowMs: number): Room {
  const from = now.getTime() - windowMs;
  const counted = sent.map((d) => d.getTime()).filter((t) => t > from).sort((a, b) => a - b);
  if (counted.length < limit) return { ok: true };
  // The (counted - limit + 1)-th oldest has to leave before there is room for one more.
  return { ok: false, freesAt: new Date(counted[counted.length - limit]! + windowMs) };
}

/**
 * A lead notice to one admin: on its own while fewer than `perHour` notices (digests included) went to them
 * in the last hour and none is waiting for a digest; otherwise it joins the digest, which goes when the
 * hour's notices leave the window (at once when they already have).
 */
export function noticeRoute(sent: readonly Date[], perHour: number, waiting: boolean, now: Date): { send: true } | { send: false; digestAt: Date } {
  const room = roomIn(sent, perHour, now, NOTICE_WINDOW_MS);
  if (room.ok && !waiting) return { send: true };
  return { send: false, digestAt: room.ok ? now : room.freesAt };
}
