CREATE TABLE "lead_person_stats" (
	"email" text NOT NULL,
	"user_key" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"total" integer NOT NULL,
	"audits" integer DEFAULT 0 NOT NULL,
	"chats" integer DEFAULT 0 NOT NULL,
	"sign_ups" integer DEFAULT 0 NOT NULL,
	"book_calls" integer DEFAULT 0 NOT NULL,
	"calls_booked" integer DEFAULT 0 NOT NULL,
	"reports_opened" integer DEFAULT 0 NOT NULL,
	"names" text DEFAULT '' NOT NULL,
	CONSTRAINT "lead_person_stats_email_user_key_pk" PRIMARY KEY("email","user_key")
);
--> statement-breakpoint
CREATE INDEX "lead_person_stats_last_idx" ON "lead_person_stats" USING btree ("last_at");--> statement-breakpoint
-- Recounts the given people (lower-cased email, account or '') from lead_events. Each key's row is made if
-- missing and locked first, in key order: a concurrent writer of the same person waits there, and the count
-- (a statement of its own, so a snapshot taken after the wait) includes that writer's committed events.
-- Row locks, not advisory ones: a bulk insert of 20,000 people would overflow the shared lock table.
CREATE FUNCTION lead_person_stats_recount(emails text[], user_keys text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_person_stats (email, user_key, first_at, last_at, total)
    SELECT k.email, k.user_key, now(), now(), 0 FROM unnest(emails, user_keys) AS k(email, user_key) ORDER BY 1, 2
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM lead_person_stats s JOIN unnest(emails, user_keys) AS k(email, user_key) ON s.email = k.email AND s.user_key = k.user_key
    ORDER BY s.email, s.user_key FOR UPDATE OF s;
  UPDATE lead_person_stats s SET
      first_at = c.first_at, last_at = c.last_at, total = c.total, audits = c.audits, chats = c.chats, sign_ups = c.sign_ups,
      book_calls = c.book_calls, calls_booked = c.calls_booked, reports_opened = c.reports_opened, names = c.names
    FROM (
      SELECT lower(e.email) AS email, coalesce(e.user_id, '') AS user_key, min(e.at) AS first_at, max(e.at) AS last_at, count(*)::int AS total,
        (count(*) FILTER (WHERE e.kind = 'audit-request'))::int AS audits,
        (count(*) FILTER (WHERE e.kind = 'chat-lead'))::int AS chats,
        (count(*) FILTER (WHERE e.kind = 'sign-up'))::int AS sign_ups,
        (count(*) FILTER (WHERE e.kind = 'book-call'))::int AS book_calls,
        (count(*) FILTER (WHERE e.kind = 'call-booked'))::int AS calls_booked,
        (count(*) FILTER (WHERE e.kind = 'report-opened'))::int AS reports_opened,
        coalesce(string_agg(DISTINCT e.name, E'\n') FILTER (WHERE e.name <> ''), '') AS names
      FROM lead_events e JOIN unnest(emails, user_keys) AS k(email, user_key) ON lower(e.email) = k.email AND coalesce(e.user_id, '') = k.user_key
      GROUP BY 1, 2
    ) c
    WHERE s.email = c.email AND s.user_key = c.user_key;
  DELETE FROM lead_person_stats s USING unnest(emails, user_keys) AS k(email, user_key)
    WHERE s.email = k.email AND s.user_key = k.user_key
      AND NOT EXISTS (SELECT 1 FROM lead_events e WHERE lower(e.email) = s.email AND coalesce(e.user_id, '') = s.user_key);
END $$;
--> statement-breakpoint
-- One function for the three statement triggers (a trigger with transition tables takes one event each).
CREATE FUNCTION lead_person_stats_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lead_person_stats_recount(array_agg(k.email), array_agg(k.user_key))
      FROM (SELECT DISTINCT lower(email) AS email, coalesce(user_id, '') AS user_key FROM new_rows WHERE email <> '') k;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lead_person_stats_recount(array_agg(k.email), array_agg(k.user_key))
      FROM (SELECT DISTINCT lower(email) AS email, coalesce(user_id, '') AS user_key FROM old_rows WHERE email <> '') k;
  ELSE
    PERFORM lead_person_stats_recount(array_agg(k.email), array_agg(k.user_key))
      FROM (SELECT lower(email) AS email, coalesce(user_id, '') AS user_key FROM old_rows WHERE email <> ''
            UNION SELECT lower(email), coalesce(user_id, '') FROM new_rows WHERE email <> '') k;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION lead_person_stats_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE lead_person_stats;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_person_stats_insert AFTER INSERT ON lead_events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_person_stats_sync();
--> statement-breakpoint
CREATE TRIGGER lead_person_stats_update AFTER UPDATE ON lead_events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_person_stats_sync();
--> statement-breakpoint
CREATE TRIGGER lead_person_stats_delete AFTER DELETE ON lead_events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_person_stats_sync();
--> statement-breakpoint
CREATE TRIGGER lead_person_stats_truncate AFTER TRUNCATE ON lead_events FOR EACH STATEMENT EXECUTE FUNCTION lead_person_stats_truncated();
--> statement-breakpoint
-- The events recorded before this migration.
INSERT INTO lead_person_stats (email, user_key, first_at, last_at, total, audits, chats, sign_ups, book_calls, calls_booked, reports_opened, names)
  SELECT lower(email), coalesce(user_id, ''), min(at), max(at), count(*)::int,
    (count(*) FILTER (WHERE kind = 'audit-request'))::int, (count(*) FILTER (WHERE kind = 'chat-lead'))::int,
    (count(*) FILTER (WHERE kind = 'sign-up'))::int, (count(*) FILTER (WHERE kind = 'book-call'))::int,
    (count(*) FILTER (WHERE kind = 'call-booked'))::int, (count(*) FILTER (WHERE kind = 'report-opened'))::int,
    coalesce(string_agg(DISTINCT name, E'\n') FILTER (WHERE name <> ''), '')
  FROM lead_events WHERE email <> '' GROUP BY 1, 2;
