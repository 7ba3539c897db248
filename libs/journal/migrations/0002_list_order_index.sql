DROP INDEX "journal"."entries_created_at";--> statement-breakpoint
CREATE INDEX "entries_created_at" ON "journal"."entries" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);