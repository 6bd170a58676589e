-- Admin operations (docs/product.md §2.5): users search (pg_trgm), the gallery's links and tags on photos, the
-- cross-project review queue, the dashboard's counts. Hand-added: the extension and the backfills at the end.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "audit_log_target_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_members" ADD COLUMN "first_contribution_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "project_id" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "mission_id" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "entry_id" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "response_id" integer;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "starred" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_mission_id_missions_id_fk" FOREIGN KEY ("mission_id") REFERENCES "public"."missions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_entry_id_mission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."mission_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_response_id_survey_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."survey_responses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower("email" || ' ' || "first_name" || ' ' || "last_name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_role_status_idx" ON "users" USING btree ("role","status");--> statement-breakpoint
CREATE INDEX "users_last_active_idx" ON "users" USING btree ("last_active_at");--> statement-breakpoint
CREATE INDEX "client_reports_errors_idx" ON "client_reports" USING btree ("last_seen_at") WHERE "client_reports"."data"->>'type' <> 'action';--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "project_members_contributed_idx" ON "project_members" USING btree ("project_id") WHERE "project_members"."first_contribution_at" is not null;--> statement-breakpoint
CREATE INDEX "mission_entries_waiting_idx" ON "mission_entries" USING btree ("submitted_at","id") WHERE "mission_entries"."status" = 'submitted';--> statement-breakpoint
CREATE INDEX "mission_entries_submitted_at_idx" ON "mission_entries" USING btree ("submitted_at") WHERE "mission_entries"."submitted_at" is not null;--> statement-breakpoint
CREATE INDEX "media_gallery_idx" ON "media" USING btree ("created_at","id") WHERE "media"."project_id" is not null;--> statement-breakpoint
CREATE INDEX "media_gallery_project_idx" ON "media" USING btree ("project_id","created_at","id");--> statement-breakpoint
CREATE INDEX "media_gallery_mission_idx" ON "media" USING btree ("mission_id","created_at","id");--> statement-breakpoint
CREATE INDEX "media_gallery_starred_idx" ON "media" USING btree ("created_at","id") WHERE "media"."starred";--> statement-breakpoint
CREATE INDEX "media_entry_idx" ON "media" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "media_response_idx" ON "media" USING btree ("response_id");--> statement-breakpoint
CREATE INDEX "media_tags_idx" ON "media" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "points_ledger_created_idx" ON "points_ledger" USING btree ("created_at","state","points");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
UPDATE "users" u SET "last_active_at" = greatest(u."last_sign_in_at", (SELECT max(s."last_seen_at") FROM "sessions" s WHERE s."user_id" = u."id"));--> statement-breakpoint
UPDATE "media" m SET "entry_id" = e."id", "mission_id" = e."mission_id", "project_id" = mi."project_id"
  FROM "mission_entries" e JOIN "missions" mi ON mi."id" = e."mission_id"
  WHERE e."user_id" = m."owner_id" AND (strpos(e."answers"::text, '"' || m."id" || '"') > 0
    OR EXISTS (SELECT 1 FROM "entry_submissions" s WHERE s."entry_id" = e."id" AND strpos(s."answers"::text, '"' || m."id" || '"') > 0));--> statement-breakpoint
UPDATE "media" m SET "response_id" = r."id", "project_id" = sv."project_id"
  FROM "survey_responses" r JOIN "surveys" sv ON sv."id" = r."survey_id"
  WHERE m."project_id" IS NULL AND r."user_id" = m."owner_id" AND strpos(r."answers"::text, '"' || m."id" || '"') > 0;--> statement-breakpoint
UPDATE "project_members" pm SET "first_contribution_at" = c."at" FROM (
  SELECT "project_id", "user_id", min("at") AS "at" FROM (
    SELECT m."project_id", e."user_id", e."submitted_at" AS "at" FROM "mission_entries" e JOIN "missions" m ON m."id" = e."mission_id"
      WHERE e."submitted_at" IS NOT NULL
    UNION ALL
    SELECT s."project_id", r."user_id", r."submitted_at" FROM "survey_responses" r JOIN "surveys" s ON s."id" = r."survey_id"
      WHERE r."submitted_at" IS NOT NULL
    UNION ALL
    SELECT s."project_id", x."user_id", coalesce(x."returned_at", x."created_at") FROM "survey_external_refs" x JOIN "surveys" s ON s."id" = x."survey_id"
      WHERE x."outcome" IS NOT NULL
  ) u GROUP BY 1, 2
) c WHERE c."project_id" = pm."project_id" AND c."user_id" = pm."user_id";
