DROP INDEX "audit"."access_log_created_at";--> statement-breakpoint
CREATE INDEX "access_log_created_at" ON "audit"."access_log" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);