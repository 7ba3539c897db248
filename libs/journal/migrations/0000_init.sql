CREATE SCHEMA "journal";
--> statement-breakpoint
CREATE TABLE "journal"."data_keys" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"wrapped_key" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_keys_single_row" CHECK ("journal"."data_keys"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "journal"."entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"title_ciphertext" "bytea",
	"content_ciphertext" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "entries_created_at" ON "journal"."entries" USING btree ("created_at" DESC NULLS LAST,"id");