-- Merging two people (issue 39, decision 064): an address merged into a person, so later lead events with it join them.
CREATE TABLE "lead_aliases" (
	"alias" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_aliases" ADD CONSTRAINT "lead_aliases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_aliases_email_idx" ON "lead_aliases" USING btree ("email");