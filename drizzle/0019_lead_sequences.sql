CREATE TABLE "lead_sequence_enrollments" (
	"id" text PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"ref_id" text,
	"consented_at" timestamp with time zone NOT NULL,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_step" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"stop_reason" text DEFAULT '' NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_sequence_sends" (
	"enrollment_id" text NOT NULL,
	"step" integer NOT NULL,
	"mail_id" text,
	"skip_reason" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_sequence_sends_enrollment_id_step_pk" PRIMARY KEY("enrollment_id","step")
);
--> statement-breakpoint
CREATE TABLE "lead_sequences" (
	"trigger" text PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_unsubscribes" (
	"email" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_unsubscribes_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "contact_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lead_people" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_queue" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_sequence_sends" ADD CONSTRAINT "lead_sequence_sends_enrollment_id_lead_sequence_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."lead_sequence_enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_sequence_enrollments_trigger_email_idx" ON "lead_sequence_enrollments" USING btree ("trigger","email");--> statement-breakpoint
CREATE INDEX "lead_sequence_enrollments_email_idx" ON "lead_sequence_enrollments" USING btree ("email");--> statement-breakpoint
INSERT INTO "lead_sequences" ("trigger", "active", "steps") VALUES
('audit-requested', false, '[{"delayDays":0,"subject":"We are on your audit, {{first_name}}","body":"Hi {{first_name}},\n\nThank you for asking {{site_name}} for a free audit of {{business}}. We are looking at your website now and will send you the report shortly.\n\nBest regards,\n{{site_name}}"},{"delayDays":2,"subject":"Did you get a chance to read your audit?","body":"Hi {{first_name}},\n\nYour audit of {{business}} points at a few quick wins. If you would like us to walk you through them, pick a time for a short call: {{booking_link}}\n\nBest regards,\n{{site_name}}"},{"delayDays":5,"subject":"A short call about {{business}}?","body":"Hi {{first_name}},\n\nA 20-minute call is the quickest way to see what we could automate at {{business}}. Pick any time that suits you: {{booking_link}}\n\nBest regards,\n{{site_name}}"}]'::jsonb),
('report-sent', false, '[{"delayDays":2,"subject":"Your audit of {{business}}: any questions?","body":"Hi {{first_name}},\n\nHere is your audit again, in case it got buried (the link is private to you): {{audit_link}}\n\nHappy to go through it together on a short call: {{booking_link}}\n\nBest regards,\n{{site_name}}"},{"delayDays":6,"subject":"Shall we fix the first three findings together?","body":"Hi {{first_name}},\n\nMost of what the audit found at {{business}} can be fixed in a week. Book a call and we will show you how: {{booking_link}}\n\nBest regards,\n{{site_name}}"}]'::jsonb),
('chat-lead', false, '[{"delayDays":1,"subject":"Following up on your chat with {{site_name}}","body":"Hi {{first_name}},\n\nThank you for chatting with us. If it is easier to talk it through, pick a time for a short call: {{booking_link}}\n\nBest regards,\n{{site_name}}"}]'::jsonb);
