/**
 * Dates as people read them ("Nov 22, 2026", "November 22, 2026"), in UTC so a page renders the same on
 * every server. The formatters are built once: constructing Intl formatters is costly on hot pages.
 */
const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export const formatDateMedium = (date: Date) => medium.format(date);
export const formatDateLong = (date: Date) => long.format(date);
