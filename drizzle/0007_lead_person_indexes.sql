CREATE INDEX "lead_events_person_at_idx" ON "lead_events" USING btree (lower("email"),"at");--> statement-breakpoint
CREATE INDEX "mail_queue_to_created_idx" ON "mail_queue" USING btree (lower("to"),"created_at");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");