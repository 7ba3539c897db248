CREATE TABLE "media"."erasure_watch" (
	"prefix" text PRIMARY KEY NOT NULL,
	"watch_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media"."uploads" ADD COLUMN "registered_at" timestamp with time zone;