/** Firestore values as firebase-admin returns them → plain JSON, and the seed's field-name rule at every depth. */
import { describe, expect, it } from 'vitest';
import { convertDocumentData } from '../../src/server/modules/firebase-import';
import { FakeDocumentReference, FakeGeoPoint, FakeTimestamp } from '../support/firestore-fixture';

describe('convertDocumentData', () => {
  it('timestamps become ISO strings, to the millisecond', () => {
    const { value, problems } = convertDocumentData({
      fromClass: new FakeTimestamp(1741944600, 123_456_789),
      fromJson: { _seconds: 1741944600, _nanoseconds: 0 },
      fromDate: new Date('2025-03-14T09:30:00.000Z'),
      // Without seconds/nanoseconds the class's own toDate() is asked.
      onlyToDate: new (class Ts {
        toDate() {
          return new Date('2025-01-01T00:00:00.000Z');
        }
      })(),
      // A plain map with these names is data, not a timestamp.
      plain: { seconds: 5, nanoseconds: 0 },
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      fromClass: '2025-03-14T09:30:00.123Z',
      fromJson: '2025-03-14T09:30:00.000Z',
      fromDate: '2025-03-14T09:30:00.000Z',
      onlyToDate: '2025-01-01T00:00:00.000Z',
      plain: { seconds: 5, nanoseconds: 0 },
    });
  });

  it('GeoPoints, references, bytes, arrays and nested maps', () => {
    const { value, problems } = convertDocumentData({
      where: new FakeGeoPoint(51.5072, -0.1276),
      whereJson: { _latitude: -33.86, _longitude: 151.2 },
      service: new FakeDocumentReference('ai-lead-outreach', 'services'),
      bytes: Buffer.from('hi'),
      list: [1, 'two', true, null, new FakeTimestamp(0, 0), { deep: { deeper: [new FakeDocumentReference('x', 'demos')] } }],
      map: { a: { b: { c: 1 } } },
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      where: { latitude: 51.5072, longitude: -0.1276 },
      whereJson: { latitude: -33.86, longitude: 151.2 },
      service: 'services/ai-lead-outreach',
      bytes: 'aGk=',
      list: [1, 'two', true, null, '1970-01-01T00:00:00.000Z', { deep: { deeper: ['demos/x'] } }],
      map: { a: { b: { c: 1 } } },
    });
  });

  it('GeoPoints out of the seed ranges, non-finite numbers and unknown classes are problems', () => {
    const { value, problems } = convertDocumentData({
      where: new FakeGeoPoint(91, -181),
      ratio: Number.NaN,
      list: [1, Number.POSITIVE_INFINITY],
      vector: new (class VectorValue {
        toArray() {
          return [1, 2];
        }
      })(),
    });
    expect(problems).toEqual([
      { path: ['where', 'latitude'], message: 'must be between -90 and 90' },
      { path: ['where', 'longitude'], message: 'must be between -180 and 180' },
      { path: ['ratio'], message: 'must be a finite number, not NaN' },
      { path: ['list', 1], message: 'must be a finite number, not Infinity' },
      { path: ['vector'], message: 'is a value this importer does not read (VectorValue)' },
    ]);
    expect(value).toEqual({ where: { latitude: 91, longitude: -181 }, list: [1] });
  });

  it('checks every key at every depth by the seed field-name rule and leaves bad keys out', () => {
    const { value, problems } = convertDocumentData({
      '': 1,
      __name__: 2,
      'a~b': 3,
      'a*b': 4,
      'a/b': 5,
      'a[0]': 6,
      'b]': 7,
      _private_: 8,
      __leading: 9,
      nested: { ok: 1, 'x/y': 2, list: [{ fine: true, '__x__': false }] },
    });
    expect(problems).toEqual([
      { path: [''], message: 'field names must not be empty' },
      { path: ['__name__'], message: 'field names must not both begin and end with "__"' },
      { path: ['a~b'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['a*b'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['a/b'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['a[0]'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['b]'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['nested', 'x/y'], message: 'field names must not contain ~ * / [ or ]' },
      { path: ['nested', 'list', 0, '__x__'], message: 'field names must not both begin and end with "__"' },
    ]);
    expect(value).toEqual({ _private_: 8, __leading: 9, nested: { ok: 1, list: [{ fine: true }] } });
  });

  it('a document without data is a problem', () => {
    expect(convertDocumentData(undefined)).toEqual({ value: {}, problems: [{ path: [], message: 'the document has no data' }] });
  });
});
