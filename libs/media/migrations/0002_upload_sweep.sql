ALTER TABLE "media"."uploads" ADD COLUMN "discarded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "uploads_expires_at" ON "media"."uploads" USING btree ("expires_at");