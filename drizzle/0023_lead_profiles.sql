CREATE TABLE "lead_profiles" (
	"email" text PRIMARY KEY NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"request_id" text,
	"score" integer,
	"score_request_id" text,
	"checked_at" timestamp with time zone,
	"report_sent_at" timestamp with time zone,
	"report_opened_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "lead_profiles_score_idx" ON "lead_profiles" USING btree ("score");--> statement-breakpoint
CREATE INDEX "audit_requests_person_idx" ON "audit_requests" USING btree (lower("email"),"created_at");--> statement-breakpoint
-- One person, one stage, one owner (issue 35): an audit request's own status and assignee become the
-- person's stage and owner, where the person has none yet, and the request's columns go. The newest request
-- speaks for the person: "in progress" or "report sent" is Contacted; "closed" is Contacted when a report went
-- out, Not a fit when none did.
INSERT INTO "lead_people" ("email")
  SELECT DISTINCT lower("email") FROM "audit_requests" WHERE "status" <> 'new' OR "assigned_to" IS NOT NULL
  ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "lead_people" p SET "owner_id" = r."assigned_to", "updated_at" = now()
  FROM (SELECT DISTINCT ON (lower("email")) lower("email") AS email, "assigned_to" FROM "audit_requests" WHERE "assigned_to" IS NOT NULL ORDER BY lower("email"), "created_at" DESC) r
  WHERE p."email" = r.email AND p."owner_id" IS NULL;--> statement-breakpoint
UPDATE "lead_people" p SET "updated_at" = now(), "stage" = CASE
    WHEN r.status IN ('in-progress', 'report-sent') THEN 'contacted'
    WHEN r.status = 'closed' AND r.reported THEN 'contacted'
    WHEN r.status = 'closed' THEN 'not-a-fit'
    ELSE p."stage" END
  FROM (
    SELECT DISTINCT ON (lower(a."email")) lower(a."email") AS email, a."status" AS status, EXISTS (SELECT 1 FROM "audit_reports" x WHERE x."request_id" = a."id") AS reported
    FROM "audit_requests" a ORDER BY lower(a."email"), a."created_at" DESC
  ) r
  WHERE p."email" = r.email AND p."stage" = 'new' AND r.status <> 'new';--> statement-breakpoint
ALTER TABLE "audit_requests" DROP CONSTRAINT "audit_requests_assigned_to_users_id_fk";--> statement-breakpoint
DROP INDEX "audit_requests_status_created_idx";--> statement-breakpoint
ALTER TABLE "audit_requests" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "audit_requests" DROP COLUMN "assigned_to";--> statement-breakpoint
-- Makes the profiles of the given people (lower-cased emails) again from their requests, checks and
-- reports. Each row is made if missing and locked first, in email order: a concurrent writer of the same
-- person waits there, and the recount (a statement of its own, so a snapshot taken after the wait) sees what
-- that writer committed (decision 050's rule).
CREATE FUNCTION lead_profiles_recount(emails text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_profiles (email) SELECT DISTINCT e FROM unnest(emails) AS e WHERE e <> '' ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM lead_profiles p WHERE p.email = ANY (emails) ORDER BY p.email FOR UPDATE;
  UPDATE lead_profiles p SET
      business_name = coalesce(c.business_name, ''), phone = coalesce(c.phone, ''), website = coalesce(c.website, ''), request_id = c.request_id,
      score = c.score, score_request_id = c.score_request_id, checked_at = c.checked_at, report_sent_at = c.report_sent_at, report_opened_at = c.report_opened_at
    FROM (
      SELECT k.email,
        (SELECT r.business_name FROM audit_requests r WHERE lower(r.email) = k.email AND r.business_name <> '' ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS business_name,
        (SELECT r.phone FROM audit_requests r WHERE lower(r.email) = k.email AND r.phone <> '' ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS phone,
        (SELECT r.website FROM audit_requests r WHERE lower(r.email) = k.email AND r.website <> '' ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS website,
        (SELECT r.id FROM audit_requests r WHERE lower(r.email) = k.email ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS request_id,
        s.score, s.request_id AS score_request_id, s.finished_at AS checked_at,
        rep.sent_at AS report_sent_at, rep.last_opened_at AS report_opened_at
      FROM (SELECT DISTINCT e AS email FROM unnest(emails) AS e) k
      LEFT JOIN LATERAL (
        SELECT u.score, u.request_id, u.finished_at FROM site_audit_runs u JOIN audit_requests r ON r.id = u.request_id
        WHERE lower(r.email) = k.email AND u.status = 'done' AND u.score IS NOT NULL ORDER BY u.finished_at DESC NULLS LAST, u.id DESC LIMIT 1
      ) s ON true
      LEFT JOIN LATERAL (
        SELECT x.sent_at, x.last_opened_at FROM audit_reports x JOIN audit_requests r ON r.id = x.request_id
        WHERE lower(r.email) = k.email ORDER BY x.sent_at DESC, x.id DESC LIMIT 1
      ) rep ON true
    ) c
    WHERE p.email = c.email;
  DELETE FROM lead_profiles p WHERE p.email = ANY (emails) AND NOT EXISTS (SELECT 1 FROM audit_requests r WHERE lower(r.email) = p.email);
END $$;
--> statement-breakpoint
-- The people a statement touched, by table: a request's own email; a run's or a report's request's.
CREATE FUNCTION lead_profiles_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
BEGIN
  IF TG_TABLE_NAME = 'audit_requests' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT lower(email)) INTO touched FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT lower(email)) INTO touched FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT e) INTO touched FROM (SELECT lower(email) AS e FROM old_rows UNION SELECT lower(email) FROM new_rows) k;
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT lower(r.email)) INTO touched FROM new_rows n JOIN audit_requests r ON r.id = n.request_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT lower(r.email)) INTO touched FROM old_rows o JOIN audit_requests r ON r.id = o.request_id;
  ELSE
    SELECT array_agg(DISTINCT lower(r.email)) INTO touched FROM (SELECT request_id FROM old_rows UNION SELECT request_id FROM new_rows) k JOIN audit_requests r ON r.id = k.request_id;
  END IF;
  IF touched IS NOT NULL THEN PERFORM lead_profiles_recount(touched); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION lead_profiles_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE lead_profiles;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER lead_profiles_requests_insert AFTER INSERT ON audit_requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_requests_update AFTER UPDATE ON audit_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_requests_delete AFTER DELETE ON audit_requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_requests_truncate AFTER TRUNCATE ON audit_requests FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_truncated();--> statement-breakpoint
CREATE TRIGGER lead_profiles_runs_insert AFTER INSERT ON site_audit_runs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_runs_update AFTER UPDATE ON site_audit_runs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_runs_delete AFTER DELETE ON site_audit_runs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_reports_insert AFTER INSERT ON audit_reports REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_reports_update AFTER UPDATE ON audit_reports REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
CREATE TRIGGER lead_profiles_reports_delete AFTER DELETE ON audit_reports REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_profiles_sync();--> statement-breakpoint
-- Everyone with a request, once.
SELECT lead_profiles_recount(array_agg(DISTINCT lower(email))) FROM audit_requests;
