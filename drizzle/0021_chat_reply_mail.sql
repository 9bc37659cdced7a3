ALTER TABLE "chat_conversations" ADD COLUMN "visitor_seen_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "emailed_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What was already in a conversation counts as seen: only replies from now on are emailed.
UPDATE "chat_conversations" c SET "visitor_seen_seq" = coalesce((SELECT max(m."seq") FROM "chat_messages" m WHERE m."conversation_id" = c."id"), 0);--> statement-breakpoint
-- The suggested audit sequence starts on day 1: its first mail no longer goes out in the same second as the
-- request's confirmation (issue 35). Only where the team has not changed that step.
UPDATE "lead_sequences" SET "steps" = jsonb_set("steps", '{0,delayDays}', '1'::jsonb)
WHERE "trigger" = 'audit-requested'
  AND "steps" -> 0 ->> 'subject' = 'We are on your audit, {{first_name}}'
  AND ("steps" -> 0 ->> 'delayDays')::int = 0
  AND ("steps" -> 1 ->> 'delayDays')::int > 1;
