CREATE TABLE "lead_notice_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"admin_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"digest_mail_id" text
);
--> statement-breakpoint
ALTER TABLE "lead_notice_holds" ADD CONSTRAINT "lead_notice_holds_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_notice_holds_waiting_idx" ON "lead_notice_holds" USING btree ("admin_id","created_at") WHERE "lead_notice_holds"."digest_mail_id" is null;