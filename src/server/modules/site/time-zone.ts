/**
 * The site's time zone (decision 032): the zone the chat's business hours are read in
 * (`chatSettings.businessHours.timeZone`, chosen at /admin/chat-settings), UTC until the owner picks one.
 * Every time in the admin is shown in it and the overview's days are counted in it. Read through the chat
 * settings' memo, so it costs no query and a save reaches every process with the `chat` cache tag.
 */
import { getChatSettings } from '../chat/settings';

export const siteTimeZone = async (): Promise<string> => (await getChatSettings()).businessHours.timeZone;

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
