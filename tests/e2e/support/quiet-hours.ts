/**
 * Mail that waits out the quiet hours (sequence steps, chat reply mails) is tested at any hour: for the
 * length of a test, the site's quiet hours are moved to start six hours from now (in the site's zone), and
 * put back after. Runs started after 20:00, inside the default quiet hours, once failed.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { gotoHydrated } from './accounts';
import { callAction } from './admin-actions';

/** "HH:MM" of `at` on the wall clock of `timeZone`. */
const wallClock = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
const HOUR = 3_600_000;

/** Runs `work` with the quiet hours away from now (`page` and `request` signed in as the admin). */
export async function awayFromQuietHours<T>(page: Page, request: APIRequestContext, baseURL: string, work: () => Promise<T>): Promise<T> {
  await gotoHydrated(page, '/admin/leads/sequences');
  const timeZone = /time zone \(([^,)]+)/.exec(await page.locator('form[data-quiet-hours]').innerText())![1]!;
  const quiet = { start: await page.getByLabel('No follow-up emails between').inputValue(), end: await page.getByLabel(/^and/).inputValue() };
  const save = async (input: unknown) => expect((await callAction(request, baseURL, 'admin.leads.saveQuietHours', input)).status).toBe(200);
  await save({ start: wallClock(new Date(Date.now() + 6 * HOUR), timeZone), end: wallClock(new Date(Date.now() + 7 * HOUR), timeZone) });
  try {
    return await work();
  } finally {
    await save(quiet);
  }
}
