CREATE TABLE "lead_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_people" (
	"email" text PRIMARY KEY NOT NULL,
	"stage" text DEFAULT 'new' NOT NULL,
	"owner_id" text,
	"follow_up_on" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_people" ADD CONSTRAINT "lead_people_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_notes_email_idx" ON "lead_notes" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "lead_people_stage_idx" ON "lead_people" USING btree ("stage");--> statement-breakpoint
CREATE INDEX "lead_people_owner_idx" ON "lead_people" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "lead_people_follow_up_idx" ON "lead_people" USING btree ("follow_up_on");