CREATE TABLE "journal"."entry_removals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"revision" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal"."entries" ADD COLUMN "revision" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "entry_removals_revision" ON "journal"."entry_removals" USING btree ("revision");--> statement-breakpoint
CREATE INDEX "entries_revision" ON "journal"."entries" USING btree ("revision");