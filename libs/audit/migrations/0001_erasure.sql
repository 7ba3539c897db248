CREATE TABLE "audit"."erasure" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"erased_at" timestamp with time zone NOT NULL,
	CONSTRAINT "erasure_one_row" CHECK ("audit"."erasure"."id")
);

--> statement-breakpoint
-- The one row: never erased yet.
INSERT INTO "audit"."erasure" ("id", "erased_at") VALUES (true, '-infinity');