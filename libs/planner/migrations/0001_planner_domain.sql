CREATE TABLE "planner"."activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_title" UNIQUE("title")
);
--> statement-breakpoint
CREATE TABLE "planner"."balance" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "balance_single_row" CHECK ("planner"."balance"."id" = 1),
	CONSTRAINT "balance_not_negative" CHECK ("planner"."balance"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "planner"."schedule_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"template_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_items_date_template" UNIQUE("date","template_id")
);
--> statement-breakpoint
CREATE TABLE "planner"."studies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"end_goal" text NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planner"."weekly_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"time" text NOT NULL,
	"day_of_week" smallint NOT NULL,
	"is_repeating" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "planner"."schedule_items" ADD CONSTRAINT "schedule_items_template_id_weekly_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "planner"."weekly_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_items_date_time" ON "planner"."schedule_items" USING btree ("date","time");--> statement-breakpoint
CREATE INDEX "studies_completed_at" ON "planner"."studies" USING btree ("completed","completed_at");--> statement-breakpoint
CREATE INDEX "weekly_templates_day_time" ON "planner"."weekly_templates" USING btree ("day_of_week","time");