CREATE SCHEMA "auth";
--> statement-breakpoint
CREATE TABLE "auth"."owner_credential" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"password_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "owner_credential_single_row" CHECK ("auth"."owner_credential"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "auth"."vault_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"destroyed" boolean DEFAULT false NOT NULL,
	"global_access" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_state_single_row" CHECK ("auth"."vault_state"."id" = 1)
);
