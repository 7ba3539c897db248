CREATE SCHEMA "media";
--> statement-breakpoint
CREATE TABLE "media"."photos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"object_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photos_object_key" UNIQUE("object_key")
);
--> statement-breakpoint
CREATE TABLE "media"."uploads" (
	"object_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"uploaded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "photos_created_at" ON "media"."photos" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "uploads_created_at" ON "media"."uploads" USING btree ("created_at");