/**
 * What firebase-admin's `DocumentSnapshot.data()` returns, turned into plain JSON values the content
 * format reads. Duck-typed on purpose: this module must not import firebase-admin (it is added later, only
 * for the CLI), and tests build the same shapes by hand. The seed's field-name rule (fieldNameProblem in
 * the content format) is applied to every key at every depth here, so a bad document is known before any
 * mapping.
 */
import { fieldNameProblem } from '../../../shared/content-bundle';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type FieldPath = (string | number)[];
export interface ValueProblem {
  path: FieldPath;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
/** An object literal (a Firestore map), as opposed to an instance of a class such as Timestamp. */
const isPlainMap = (v: unknown): boolean => {
  if (!isObject(v) || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const hasExactKeys = (v: Record<string, unknown>, keys: string[]) => Object.keys(v).sort().join(',') === [...keys].sort().join(',');

/**
 * A Firestore Timestamp as an instant: firebase-admin's class (seconds + nanoseconds, and toDate()), or the
 * `{ _seconds, _nanoseconds }` JSON.stringify makes of one (a saved fixture or export). Nanoseconds below a
 * millisecond are dropped, as Date cannot hold them.
 */
function timestampOf(v: unknown): Date | undefined {
  if (!isObject(v)) return undefined;
  if (v instanceof Date) return v;
  if (!isPlainMap(v) && typeof v.toDate === 'function') {
    if (typeof v.seconds === 'number' && typeof v.nanoseconds === 'number') return new Date(v.seconds * 1000 + Math.floor(v.nanoseconds / 1e6));
    const date: unknown = (v.toDate as () => unknown)();
    return date instanceof Date ? date : undefined;
  }
  if (isPlainMap(v) && hasExactKeys(v, ['_seconds', '_nanoseconds']) && typeof v._seconds === 'number' && typeof v._nanoseconds === 'number') {
    return new Date(v._seconds * 1000 + Math.floor(v._nanoseconds / 1e6));
  }
  return undefined;
}

/** A GeoPoint: the class (latitude/longitude getters) or its JSON `{ _latitude, _longitude }`. */
function geoPointOf(v: unknown): { latitude: number; longitude: number } | undefined {
  if (!isObject(v) || Array.isArray(v)) return undefined;
  if (!isPlainMap(v) && typeof v.latitude === 'number' && typeof v.longitude === 'number') return { latitude: v.latitude, longitude: v.longitude };
  if (isPlainMap(v) && hasExactKeys(v, ['_latitude', '_longitude']) && typeof v._latitude === 'number' && typeof v._longitude === 'number') {
    return { latitude: v._latitude, longitude: v._longitude };
  }
  return undefined;
}

/** A DocumentReference: a class instance with its `path` ("services/abc") and `id`. */
function referencePathOf(v: unknown): string | undefined {
  if (!isObject(v) || isPlainMap(v) || Array.isArray(v)) return undefined;
  return typeof v.path === 'string' && typeof v.id === 'string' ? v.path : undefined;
}

/**
 * One Firestore value as JSON: timestamps become ISO 8601 strings (what the content format writes),
 * GeoPoints `{ latitude, longitude }` (checked against the seed's ranges), references their document path,
 * bytes base64, arrays and maps converted item by item. Keys that break the field-name rule are reported
 * and left out of the value (the caller refuses the whole document, so nothing half-converted is kept).
 */
export function toJsonValue(value: unknown, path: FieldPath, problems: ValueProblem[]): JsonValue | undefined {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    // Firestore stores NaN and ±Infinity; JSON and PostgreSQL numerics cannot.
    if (Number.isFinite(value)) return value;
    problems.push({ path, message: `must be a finite number, not ${String(value)}` });
    return undefined;
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => {
      const converted = toJsonValue(item, [...path, i], problems);
      return converted === undefined ? [] : [converted];
    });
  }
  const date = timestampOf(value);
  if (date) {
    if (!Number.isNaN(date.getTime())) return date.toISOString();
    problems.push({ path, message: 'is a timestamp outside the range a date can hold' });
    return undefined;
  }
  const point = geoPointOf(value);
  if (point) {
    if (point.latitude < -90 || point.latitude > 90) problems.push({ path: [...path, 'latitude'], message: 'must be between -90 and 90' });
    if (point.longitude < -180 || point.longitude > 180) problems.push({ path: [...path, 'longitude'], message: 'must be between -180 and 180' });
    return point;
  }
  const reference = referencePathOf(value);
  if (reference !== undefined) return reference;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (isPlainMap(value)) return toJsonObject(value as Record<string, unknown>, path, problems);
  problems.push({ path, message: `is a value this importer does not read (${describeType(value)})` });
  return undefined;
}

/** A map's entries converted, each key checked by the seed's field-name rule. */
export function toJsonObject(map: Record<string, unknown>, path: FieldPath, problems: ValueProblem[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(map)) {
    const nameProblem = fieldNameProblem(key);
    if (nameProblem) {
      problems.push({ path: [...path, key], message: nameProblem });
      continue;
    }
    const converted = toJsonValue(child, [...path, key], problems);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

/** A document's data as JSON and every problem found in it; `data` is what `snapshot.data()` returned. */
export function convertDocumentData(data: unknown): { value: JsonObject; problems: ValueProblem[] } {
  const problems: ValueProblem[] = [];
  if (!isPlainMap(data)) return { value: {}, problems: [{ path: [], message: 'the document has no data' }] };
  return { value: toJsonObject(data as Record<string, unknown>, [], problems), problems };
}

function describeType(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'object';
}
