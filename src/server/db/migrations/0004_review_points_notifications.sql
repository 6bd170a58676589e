CREATE TABLE "entry_submissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entry_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"version" integer NOT NULL,
	"form_version" integer NOT NULL,
	"answers" jsonb NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	CONSTRAINT "entry_submissions_decision_check" CHECK ("entry_submissions"."decision" is null or "entry_submissions"."decision" in ('approved', 'changes_requested', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "probes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "probes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"asked_by" integer,
	"question" text NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reason_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reason_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reason_templates_kind_check" CHECK ("reason_templates"."kind" in ('request_changes', 'reject'))
);
--> statement-breakpoint
CREATE TABLE "review_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_ledger" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"points" integer NOT NULL,
	"state" text NOT NULL,
	"reason" text NOT NULL,
	"source" text NOT NULL,
	"reference" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_ledger_state_check" CHECK ("points_ledger"."state" in ('pending', 'available', 'voided')),
	CONSTRAINT "points_ledger_source_check" CHECK ("points_ledger"."source" in ('survey', 'mission', 'adjustment', 'bulk', 'external_survey'))
);
--> statement-breakpoint
CREATE TABLE "mission_reminders" (
	"mission_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mission_reminders_pkey" PRIMARY KEY("mission_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"mailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "submission_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "entry_submissions" ADD CONSTRAINT "entry_submissions_entry_id_mission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."mission_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_submissions" ADD CONSTRAINT "entry_submissions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_entry_id_mission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."mission_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "probes" ADD CONSTRAINT "probes_asked_by_users_id_fk" FOREIGN KEY ("asked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reason_templates" ADD CONSTRAINT "reason_templates_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reason_templates" ADD CONSTRAINT "reason_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_entry_id_mission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."mission_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_reminders" ADD CONSTRAINT "mission_reminders_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_reminders" ADD CONSTRAINT "mission_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "entry_submissions_entry_version_idx" ON "entry_submissions" USING btree ("entry_id","version");--> statement-breakpoint
CREATE INDEX "probes_entry_idx" ON "probes" USING btree ("entry_id","asked_at");--> statement-breakpoint
CREATE INDEX "probes_waiting_idx" ON "probes" USING btree ("entry_id") WHERE "probes"."answered_at" is null;--> statement-breakpoint
CREATE INDEX "reason_templates_project_idx" ON "reason_templates" USING btree ("project_id","kind");--> statement-breakpoint
CREATE INDEX "review_notes_entry_idx" ON "review_notes" USING btree ("entry_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "points_ledger_user_source_reference_idx" ON "points_ledger" USING btree ("user_id","source","reference");--> statement-breakpoint
CREATE INDEX "points_ledger_user_created_idx" ON "points_ledger" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_digest_idx" ON "notifications" USING btree ("kind","mailed_at");--> statement-breakpoint
ALTER TABLE "mission_entries" ADD CONSTRAINT "mission_entries_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;