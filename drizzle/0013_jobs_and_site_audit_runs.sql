CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"running_until" timestamp with time zone,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_audit_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"score" integer,
	"findings" jsonb,
	"fetched" jsonb,
	"error" text
);
--> statement-breakpoint
DROP INDEX "mail_queue_due_idx";--> statement-breakpoint
ALTER TABLE "site_audit_runs" ADD CONSTRAINT "site_audit_runs_request_id_audit_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."audit_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_audit_runs" ADD CONSTRAINT "site_audit_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "jobs_kind_running_idx" ON "jobs" USING btree ("kind","running_until") WHERE "jobs"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "site_audit_runs_request_idx" ON "site_audit_runs" USING btree ("request_id","created_at");--> statement-breakpoint
-- Written by hand: mail waiting to be sent moves onto the job queue, keeping its tries and its next time
-- (55 is the mail job's limit of tries; mail that used them all stays given up, as before).
INSERT INTO "jobs" ("id", "kind", "payload", "attempts", "max_attempts", "run_at", "last_error", "created_at")
SELECT 'mail-' || "id", 'mail', jsonb_build_object('mailId', "id"), "attempts", 55, "next_attempt_at", "last_error", "created_at"
FROM "mail_queue" WHERE "sent_at" IS NULL AND "attempts" < 55;
--> statement-breakpoint
ALTER TABLE "mail_queue" DROP COLUMN "next_attempt_at";