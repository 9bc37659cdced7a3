/**
 * Dates and times in the site's zone (src/shared/dates.ts, decisions 032 and 055): the one formatter with
 * one form for days ("14 Mar 2025") everywhere the team or a prospect reads one, a calendar day's form, a
 * time named with its zone (mails, the report), the day a moment falls on, and the first moment of a day,
 * around midnight and around DST changes (a day of 23 or 25 hours, a zone that skips midnight), whatever
 * zone the machine running the test is in.
 */
import { describe, expect, it } from 'vitest';
import { addDays, dayKeyIn, formatDateLong, formatDateMedium, formatDay, formatInZone, formatWithZoneName, isTimeZone, startOfDayIn, timeZoneLabel, wallClockIn } from '../../src/shared/dates';
import { leadPeriodRange, periodDays } from '../../src/shared/lead-events';

describe('formatInZone', () => {
  const at = new Date('2025-03-14T09:30:05Z');
  it('shows the wall clock of the zone it is given, in each style', () => {
    expect(formatInZone(at, 'UTC')).toBe('14 Mar 2025, 09:30:05');
    expect(formatInZone(at, 'Europe/Berlin')).toBe('14 Mar 2025, 10:30:05');
    expect(formatInZone(at, 'America/New_York')).toBe('14 Mar 2025, 05:30:05');
    expect(formatInZone(at, 'Asia/Kathmandu', 'day-time')).toBe('14 Mar, 15:15');
    expect(formatInZone(at, 'Europe/Berlin', 'time')).toBe('10:30:05');
    expect(formatInZone(at, 'Europe/Berlin', 'hour-minute')).toBe('10:30');
    expect(formatInZone(at, 'Europe/Berlin', 'date')).toBe('14 Mar 2025');
    expect(formatInZone('2025-03-14T09:30:05Z', 'Europe/Berlin', 'date-hour-minute')).toBe('14 Mar 2025, 10:30');
    expect(formatInZone(at, 'Europe/Berlin', 'appointment')).toBe('Fri, 14 Mar 2025, 10:30');
    expect(formatInZone(at, 'Europe/Berlin', 'weekday-date')).toBe('Fri, 14 Mar 2025');
  });
  it('shows a day in one form, day month year, in every style that shows one', () => {
    const day = /\b14 Mar(?: 2025)?\b/;
    for (const style of ['date-time', 'date-hour-minute', 'day-time', 'appointment', 'date', 'weekday-date', 'weekday-day', 'day-month'] as const) {
      expect(formatInZone(at, 'UTC', style), style).toMatch(day);
    }
  });
  it('puts the day of the zone in a date: late evening in New York is the next day in Tokyo', () => {
    const evening = '2025-03-14T23:30:00Z';
    expect(formatInZone(evening, 'America/New_York', 'date')).toBe('14 Mar 2025');
    expect(formatInZone(evening, 'Asia/Tokyo', 'date')).toBe('15 Mar 2025');
  });
  it('puts a moment just after midnight UTC on the day before in the Americas, the day after in Asia', () => {
    const late = new Date('2026-11-26T00:30:00Z');
    expect(formatInZone(late, 'America/Los_Angeles')).toBe('25 Nov 2026, 16:30:00');
    expect(formatInZone(late, 'Asia/Tokyo')).toBe('26 Nov 2026, 09:30:00');
  });
  it('follows DST: the same UTC hour is 01:30 in Berlin in winter and 02:30 in summer', () => {
    expect(formatInZone('2026-03-29T00:30:00Z', 'Europe/Berlin', 'hour-minute')).toBe('01:30');
    expect(formatInZone('2026-03-29T01:30:00Z', 'Europe/Berlin', 'hour-minute')).toBe('03:30'); // 02:xx does not exist that night
  });
  it('reads an unknown zone as UTC instead of failing the page', () => {
    expect(formatInZone(at, 'Mars/Olympus_Mons')).toBe('14 Mar 2025, 09:30:05');
  });
});

describe('a time for a reader without the admin’s header (a mail, the report)', () => {
  it('names the zone once, beside the time', () => {
    expect(formatWithZoneName('2025-03-14T09:30:05Z', 'Europe/Berlin')).toBe('14 Mar 2025, 10:30 (Europe/Berlin)');
    expect(formatWithZoneName('2025-03-14T09:30:05Z', 'America/New_York')).toBe('14 Mar 2025, 05:30 (America/New York)');
    expect(formatWithZoneName('2025-03-14T09:30:05Z', 'UTC', 'date')).toBe('14 Mar 2025 (UTC)');
  });
  it('names UTC, not a zone the runtime does not know, when it falls back to it', () => {
    expect(formatWithZoneName('2025-03-14T09:30:05Z', 'Mars/Olympus_Mons')).toBe('14 Mar 2025, 09:30 (UTC)');
  });
});

describe('a calendar day (a day key: no zone to apply)', () => {
  it('reads in the same form, with the weekday where a day stands alone', () => {
    expect(formatDay('2026-11-25')).toBe('25 Nov 2026');
    expect(formatDay('2026-11-25', 'weekday-date')).toBe('Wed, 25 Nov 2026');
    expect(formatDay('2026-11-25', 'weekday-day')).toBe('Wed 25 Nov');
    expect(formatDay('2026-11-25', 'day-month')).toBe('25 Nov');
  });
  it('refuses what is not a day key', () => {
    expect(() => formatDay('25/11/2026')).toThrow(RangeError);
  });
});

describe('public content pages keep their own form, in UTC', () => {
  it('"Nov 22, 2026" and "November 22, 2026", whatever the site’s zone', () => {
    expect(formatDateMedium(new Date('2026-11-22T23:30:00Z'))).toBe('Nov 22, 2026');
    expect(formatDateLong(new Date('2026-11-22T23:30:00Z'))).toBe('November 22, 2026');
  });
});

describe('time zones', () => {
  it('knows the IANA zones and UTC, not made-up names', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(timeZoneLabel('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos Aires');
  });
  it('gives the wall clock of a zone, hours 0 to 23', () => {
    expect(wallClockIn('2026-11-25T23:30:00Z', 'Europe/Berlin')).toEqual({ year: 2026, month: 11, day: 26, hour: 0, minute: 30, second: 0 });
    expect(wallClockIn('2026-11-25T23:30:00Z', 'America/New_York')).toMatchObject({ day: 25, hour: 18 });
  });
});

describe('dayKeyIn', () => {
  it('is the calendar day of the zone around midnight', () => {
    expect(dayKeyIn('2026-11-25T22:59:59Z', 'Europe/Berlin')).toBe('2026-11-25');
    expect(dayKeyIn('2026-11-25T23:00:00Z', 'Europe/Berlin')).toBe('2026-11-26');
    expect(dayKeyIn('2026-11-26T04:59:59Z', 'America/New_York')).toBe('2026-11-25');
    expect(dayKeyIn('2026-11-26T05:00:00Z', 'America/New_York')).toBe('2026-11-26');
    expect(dayKeyIn('2026-11-25T23:59:59.999Z', 'UTC')).toBe('2026-11-25');
  });
});

describe('startOfDayIn', () => {
  it('is local midnight, whose UTC instant moves with DST', () => {
    expect(startOfDayIn('2026-01-15', 'Europe/Berlin').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDayIn('2026-07-15', 'Europe/Berlin').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(startOfDayIn('2026-11-26', 'UTC').toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(startOfDayIn('2026-11-26', 'Asia/Kathmandu').toISOString()).toBe('2026-11-25T18:15:00.000Z');
  });
  it('makes the spring-forward day 23 hours long and the fall-back day 25', () => {
    const hours = (day: string, zone: string) => (startOfDayIn(addDays(day, 1), zone).getTime() - startOfDayIn(day, zone).getTime()) / 3_600_000;
    expect(hours('2026-03-29', 'Europe/Berlin')).toBe(23);
    expect(hours('2026-10-25', 'Europe/Berlin')).toBe(25);
    expect(hours('2026-03-08', 'America/New_York')).toBe(23);
    expect(hours('2026-11-01', 'America/New_York')).toBe(25);
    expect(hours('2026-11-26', 'Europe/Berlin')).toBe(24);
  });
  it('starts a day whose midnight does not exist at the first moment that does (Santiago, 01:00)', () => {
    const start = startOfDayIn('2026-09-06', 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(formatInZone(start, 'America/Santiago', 'hour-minute')).toBe('01:00');
    expect(dayKeyIn(start.getTime() - 1, 'America/Santiago')).toBe('2026-09-05');
  });
});

describe('the overview’s period in the site’s zone', () => {
  it('ends at the next local midnight and counts whole local days', () => {
    // 23:30 UTC on the 25th is already the 26th in Berlin: the period ends with the 26th.
    const r = leadPeriodRange(7, new Date('2026-11-25T23:30:00Z'), 'Europe/Berlin');
    expect(r.endDay).toBe('2026-11-27');
    expect(r.end.toISOString()).toBe('2026-11-26T23:00:00.000Z');
    expect(r.start.toISOString()).toBe('2026-11-19T23:00:00.000Z');
    expect(periodDays(r)[0]).toBe('2026-11-26');
    expect(periodDays(r)).toHaveLength(7);
  });
  it('spans the DST change by calendar days, not by 24-hour steps', () => {
    const r = leadPeriodRange(7, new Date('2026-03-30T12:00:00Z'), 'Europe/Berlin');
    expect(r.start.toISOString()).toBe('2026-03-23T23:00:00.000Z'); // CET
    expect(r.end.toISOString()).toBe('2026-03-30T22:00:00.000Z'); // CEST
    expect(r.previousStart.toISOString()).toBe('2026-03-16T23:00:00.000Z');
  });
  it('is the UTC period when no zone is given', () => {
    const r = leadPeriodRange(7, new Date('2026-11-25T23:30:00Z'));
    expect(r.end.toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(r.timeZone).toBe('UTC');
  });
});
