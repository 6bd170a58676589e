-- Members hear of new work (issue 28 §15, §9): project announcements, and a key that lets a user
-- be told of one thing once (`new_work:survey:12`, `announcement:3`, `points:ledger:81`) however
-- often it happens: unique per user; rows without a key (every notification before) never collide.
CREATE TABLE "announcements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcements_project_created_idx" ON "announcements" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_user_dedupe_key_idx" ON "notifications" USING btree ("user_id","dedupe_key");