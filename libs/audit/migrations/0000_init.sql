CREATE SCHEMA "audit";
--> statement-breakpoint
CREATE TABLE "audit"."access_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ip_address" text NOT NULL,
	"user_agent" text,
	"action" text NOT NULL,
	"success" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "access_log_created_at" ON "audit"."access_log" USING btree ("created_at" DESC NULLS LAST,"id");