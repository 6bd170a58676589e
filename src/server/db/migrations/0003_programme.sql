CREATE TABLE "project_members" (
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"added_by" integer,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_pkey" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"client" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"starts_at" date,
	"ends_at" date,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_status_check" CHECK ("projects"."status" in ('draft', 'live', 'closed', 'archived'))
);
--> statement-breakpoint
CREATE TABLE "survey_external_refs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_external_refs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"survey_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"pid_hash" text NOT NULL,
	"outcome" text,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_external_refs_outcome_check" CHECK ("survey_external_refs"."outcome" is null or "survey_external_refs"."outcome" in ('complete', 'screened_out', 'over_quota'))
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"survey_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"form_version" integer NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"page_id" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "survey_responses_status_check" CHECK ("survey_responses"."status" in ('draft', 'submitted'))
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "surveys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"form_id" integer,
	"form_version" integer,
	"external_url" text,
	"trust_returns" boolean DEFAULT false NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"estimated_minutes" integer,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "surveys_kind_check" CHECK ("surveys"."kind" in ('native', 'external')),
	CONSTRAINT "surveys_status_check" CHECK ("surveys"."status" in ('draft', 'live', 'closed')),
	CONSTRAINT "surveys_native_form_check" CHECK ("surveys"."kind" <> 'native' or ("surveys"."form_id" is not null and "surveys"."form_version" is not null)),
	CONSTRAINT "surveys_points_check" CHECK ("surveys"."points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mission_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mission_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"mission_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"form_version" integer NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"local_date" date NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	CONSTRAINT "mission_entries_status_check" CHECK ("mission_entries"."status" in ('draft', 'submitted', 'approved', 'changes_requested', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "missions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"title" text NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"form_id" integer NOT NULL,
	"form_version" integer NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"review" text DEFAULT 'manual' NOT NULL,
	"entries_min" integer DEFAULT 1 NOT NULL,
	"entries_max" integer DEFAULT 1 NOT NULL,
	"per_day" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missions_status_check" CHECK ("missions"."status" in ('draft', 'live', 'closed')),
	CONSTRAINT "missions_review_check" CHECK ("missions"."review" in ('manual', 'automatic')),
	CONSTRAINT "missions_entries_check" CHECK ("missions"."entries_min" >= 1 and "missions"."entries_max" >= "missions"."entries_min" and ("missions"."per_day" is null or "missions"."per_day" >= 1)),
	CONSTRAINT "missions_points_check" CHECK ("missions"."points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mission_group_missions" (
	"group_id" integer NOT NULL,
	"mission_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "mission_group_missions_pkey" PRIMARY KEY("group_id","position")
);
--> statement-breakpoint
CREATE TABLE "mission_groups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mission_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"unlock" text DEFAULT 'all_open' NOT NULL,
	"unlock_on" text DEFAULT 'submitted' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mission_groups_unlock_check" CHECK ("mission_groups"."unlock" in ('all_open', 'in_order') and "mission_groups"."unlock_on" in ('submitted', 'approved'))
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"uploaded_bytes" integer NOT NULL,
	"display_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	"thumbnail_width" integer NOT NULL,
	"thumbnail_height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_external_refs" ADD CONSTRAINT "survey_external_refs_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_external_refs" ADD CONSTRAINT "survey_external_refs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD CONSTRAINT "mission_entries_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD CONSTRAINT "mission_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_group_missions" ADD CONSTRAINT "mission_group_missions_group_id_mission_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."mission_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_group_missions" ADD CONSTRAINT "mission_group_missions_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mission_groups" ADD CONSTRAINT "mission_groups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_status_updated_idx" ON "projects" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "projects_name_lower_idx" ON "projects" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "survey_external_refs_pid_hash_idx" ON "survey_external_refs" USING btree ("pid_hash");--> statement-breakpoint
CREATE INDEX "survey_external_refs_survey_user_idx" ON "survey_external_refs" USING btree ("survey_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_survey_user_idx" ON "survey_responses" USING btree ("survey_id","user_id");--> statement-breakpoint
CREATE INDEX "survey_responses_user_idx" ON "survey_responses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "survey_responses_survey_status_idx" ON "survey_responses" USING btree ("survey_id","status","submitted_at");--> statement-breakpoint
CREATE INDEX "surveys_project_idx" ON "surveys" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "surveys_form_idx" ON "surveys" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "mission_entries_mission_user_idx" ON "mission_entries" USING btree ("mission_id","user_id","local_date");--> statement-breakpoint
CREATE INDEX "mission_entries_user_idx" ON "mission_entries" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mission_entries_mission_status_idx" ON "mission_entries" USING btree ("mission_id","status","submitted_at");--> statement-breakpoint
CREATE INDEX "missions_project_idx" ON "missions" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "missions_form_idx" ON "missions" USING btree ("form_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mission_group_missions_group_mission_idx" ON "mission_group_missions" USING btree ("group_id","mission_id");--> statement-breakpoint
CREATE INDEX "mission_group_missions_mission_idx" ON "mission_group_missions" USING btree ("mission_id");--> statement-breakpoint
CREATE INDEX "mission_groups_project_idx" ON "mission_groups" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "media_owner_created_idx" ON "media" USING btree ("owner_id","created_at");