/**
 * The site's general settings (app_config 'generalSettings', /admin/settings; decision 055): what the whole
 * site and its team share rather than one feature. The time zone every admin time, lead day, quiet hour,
 * business hour and the dates of mails and reports are read in (null until the owner picks one: UTC
 * meanwhile, and the admin offers the browser's zone); and where prospects' replies go when their lead has
 * no owner ('' = the site's public contact email).
 */
import { DEFAULT_TIME_ZONE, isTimeZone } from './dates';
import { z } from './zod';

export const GENERAL_SETTINGS_KEY = 'generalSettings';

/** How the settings (their form, the activity log) say that no time zone was chosen yet. */
export const TIME_ZONE_NOT_CHOSEN = `Not chosen: times are in ${DEFAULT_TIME_ZONE}`;

const email = z.email();

export const generalSettingsSchema = z.object({
  timeZone: z.string().max(64).refine(isTimeZone, 'must be a time zone like Europe/London').nullable().default(null),
  replyTo: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || email.safeParse(v).success, 'must be an email address such as team@example.com')
    .default(''),
});

export type GeneralSettings = z.infer<typeof generalSettingsSchema>;

export const DEFAULT_GENERAL_SETTINGS: GeneralSettings = generalSettingsSchema.parse({});

/**
 * The stored document over the defaults, field by field: a value the rules no longer take (a zone this
 * runtime does not know) gives that field's default and keeps the others.
 */
export function resolveGeneralSettings(stored: unknown): GeneralSettings {
  const value: Record<string, unknown> = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const { timeZone, replyTo } = generalSettingsSchema.shape;
  return {
    timeZone: timeZone.safeParse(value.timeZone).data ?? DEFAULT_GENERAL_SETTINGS.timeZone,
    replyTo: replyTo.safeParse(value.replyTo).data ?? DEFAULT_GENERAL_SETTINGS.replyTo,
  };
}
