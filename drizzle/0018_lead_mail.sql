CREATE TABLE "lead_mail_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_queue" ADD COLUMN "reply_to" text DEFAULT '' NOT NULL;--> statement-breakpoint
INSERT INTO "lead_mail_templates" ("id", "name", "subject", "body", "position") VALUES
('thanks', 'Thanks for reaching out', 'Thanks for getting in touch, {{first_name}}', E'Hi {{first_name}},\n\nThank you for reaching out to {{site_name}}. I have had a first look at {{business}} and will get back to you shortly with what we can do for you.\n\nIf you would like to talk it through sooner, pick a time that suits you: {{booking_link}}\n\nBest regards,\n{{sender_name}}', 0),
('audit-ready', 'Your audit is ready', 'Your audit of {{business}} is ready', E'Hi {{first_name}},\n\nThe audit of {{business}} is ready. You can read it here (the link is private to you):\n{{audit_link}}\n\nI am happy to walk you through the findings on a short call: {{booking_link}}\n\nBest regards,\n{{sender_name}}', 1),
('book-call', 'Book a call', 'A short call about {{business}}?', E'Hi {{first_name}},\n\nI would like to show you how we could save you time at {{business}}. Would a 20-minute call work for you? Pick any time here: {{booking_link}}\n\nBest regards,\n{{sender_name}}', 2);
