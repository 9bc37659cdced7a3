/**
 * The site's time zone (decisions 032 and 055): a general setting (/admin/settings), UTC until the owner
 * picks one. Every time in the admin is shown in it, the overview's days are counted in it, the chat's
 * business hours and the follow-ups' quiet hours are read in it, and mails and the audit report name it
 * beside the times they show. Read through the general settings' memo, so it costs no query and a save
 * reaches every process with the `chat` cache tag.
 */
import { DEFAULT_TIME_ZONE } from '../../../shared/dates';
import { getGeneralSettings, readGeneralSettings } from '../settings/general';

type Reader = Parameters<typeof readGeneralSettings>[0];

export const siteTimeZone = async (): Promise<string> => (await getGeneralSettings()).timeZone ?? DEFAULT_TIME_ZONE;

/** The zone read through `ex`: inside a transaction, which holds the embedded database's one connection. */
export const siteTimeZoneIn = async (ex: Reader): Promise<string> => (await readGeneralSettings(ex)).timeZone ?? DEFAULT_TIME_ZONE;

const perRequest = new WeakMap<Request, Promise<string>>();

/** The zone once per request: a page, its layout and its islands show one zone even while it is being changed. */
export function siteTimeZoneFor(request: Request): Promise<string> {
  let zone = perRequest.get(request);
  if (!zone) {
    zone = siteTimeZone();
    perRequest.set(request, zone);
  }
  return zone;
}
