CREATE TABLE "auth"."recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth"."second_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"totp_secret" text,
	"totp_last_step" bigint,
	"credential_id" text,
	"public_key" text,
	"sign_count" integer,
	"transports" jsonb,
	CONSTRAINT "second_factors_credential_id_unique" UNIQUE("credential_id"),
	CONSTRAINT "second_factors_kind_fields" CHECK (("auth"."second_factors"."kind" = 'totp' and "auth"."second_factors"."totp_secret" is not null) or ("auth"."second_factors"."kind" = 'passkey' and "auth"."second_factors"."credential_id" is not null and "auth"."second_factors"."public_key" is not null))
);
--> statement-breakpoint
ALTER TABLE "auth"."owner_credential" ADD COLUMN "passkey_sign_in" boolean DEFAULT false NOT NULL;
