DROP INDEX "media"."photos_created_at";--> statement-breakpoint
CREATE INDEX "photos_created_at" ON "media"."photos" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);