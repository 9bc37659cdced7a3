/**
 * The site's general settings (app_config 'generalSettings', /admin/settings): what the whole site and its
 * team share rather than one feature. The time zone every admin time, lead day, quiet hour and business hour
 * is read in (null until the owner picks one: UTC meanwhile, and the admin offers the browser's zone); and
 * where prospects' replies go when their lead has no owner ('' = the site's public contact email).
 */
import { z } from './zod';
import { isTimeZone } from './chat';

export const GENERAL_SETTINGS_KEY = 'generalSettings';

export const generalSettingsSchema = z.object({
  timeZone: z.string().max(64).refine(isTimeZone, 'must be a time zone like Europe/London').nullable().default(null),
  replyTo: z.union([z.literal(''), z.email({ error: 'must be an email address such as team@example.com' }).max(254)]).default(''),
});

export type GeneralSettings = z.infer<typeof generalSettingsSchema>;

export const DEFAULT_GENERAL_SETTINGS: GeneralSettings = generalSettingsSchema.parse({});

/** The stored document over the defaults; an invalid one gives the defaults. */
export function resolveGeneralSettings(stored: unknown): GeneralSettings {
  const parsed = generalSettingsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : DEFAULT_GENERAL_SETTINGS;
}
