-- Decision 055: the site's time zone is a general setting (app_config 'generalSettings'), no longer the chat
-- settings' "businessHours"."timeZone". A zone the owner chose there moves into the general settings (unless
-- they already hold one). UTC does not: it was the default every save of the chat settings stored, chosen or
-- not, so the owner is asked for the zone instead (and offered their browser's).
INSERT INTO "app_config" ("key", "value", "updated_at")
SELECT 'generalSettings', jsonb_build_object('timeZone', "value" #> '{businessHours,timeZone}'), now()
FROM "app_config"
WHERE "key" = 'chatSettings'
  AND jsonb_typeof("value" #> '{businessHours,timeZone}') = 'string'
  AND "value" #>> '{businessHours,timeZone}' <> 'UTC'
ON CONFLICT ("key") DO UPDATE SET "value" = "app_config"."value" || jsonb_build_object('timeZone', excluded."value" -> 'timeZone')
WHERE jsonb_typeof("app_config"."value") = 'object' AND coalesce(jsonb_typeof("app_config"."value" -> 'timeZone'), 'null') = 'null';--> statement-breakpoint
-- The chat settings keep their business hours without a zone of their own: they are read in the site's.
UPDATE "app_config" SET "value" = jsonb_set("value", '{businessHours}', ("value" -> 'businessHours') - 'timeZone')
WHERE "key" = 'chatSettings'
  AND jsonb_typeof("value" -> 'businessHours') = 'object'
  AND ("value" -> 'businessHours' -> 'timeZone') IS NOT NULL;
