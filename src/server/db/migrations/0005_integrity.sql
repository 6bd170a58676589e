CREATE TABLE "media_upload_reservations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "media_upload_reservations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_id" integer NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entry_decisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entry_decisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"submission_id" integer NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entry_decisions_decision_check" CHECK ("entry_decisions"."decision" in ('approved', 'changes_requested', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP CONSTRAINT "entry_submissions_decision_check";--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP CONSTRAINT "entry_submissions_decided_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "survey_external_refs" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "return_key" text;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "webhook_secret_hash" text;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "attached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media_upload_reservations" ADD CONSTRAINT "media_upload_reservations_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_decisions" ADD CONSTRAINT "entry_decisions_entry_id_mission_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."mission_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_decisions" ADD CONSTRAINT "entry_decisions_submission_id_entry_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."entry_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_decisions" ADD CONSTRAINT "entry_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_upload_reservations_owner_idx" ON "media_upload_reservations" USING btree ("owner_id","expires_at");--> statement-breakpoint
CREATE INDEX "entry_decisions_entry_idx" ON "entry_decisions" USING btree ("entry_id","id");--> statement-breakpoint
CREATE INDEX "entry_decisions_submission_idx" ON "entry_decisions" USING btree ("submission_id","id");--> statement-breakpoint
CREATE INDEX "media_unattached_idx" ON "media" USING btree ("created_at") WHERE "media"."attached_at" is null;--> statement-breakpoint
-- Data: every decision kept so far on a version becomes a decision row (one per version: the old
-- model kept only the latest), before the columns go.
INSERT INTO "entry_decisions" ("entry_id", "submission_id", "decision", "reason", "decided_by", "decided_at")
SELECT "entry_id", "id", "decision", "reason", "decided_by", coalesce("decided_at", "submitted_at")
FROM "entry_submissions" WHERE "decision" IS NOT NULL ORDER BY "id";--> statement-breakpoint
-- Entries that were ever saved or submitted start at revision 1 (a never-saved draft stays at 0).
UPDATE "mission_entries" SET "revision" = 1 WHERE "status" <> 'draft' OR "answers" <> '{}'::jsonb;--> statement-breakpoint
-- External surveys get their return key (two random UUIDs: 244 random bits, hex).
UPDATE "surveys" SET "return_key" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') WHERE "kind" = 'external' AND "return_key" IS NULL;--> statement-breakpoint
-- Photos some answer, kept version or mission's instructions already holds count as attached.
UPDATE "media" m SET "attached_at" = m."created_at" WHERE
  EXISTS (SELECT 1 FROM "survey_responses" r WHERE r."user_id" = m."owner_id" AND strpos(r."answers"::text, '"' || m."id" || '"') > 0)
  OR EXISTS (SELECT 1 FROM "mission_entries" e WHERE e."user_id" = m."owner_id" AND strpos(e."answers"::text, '"' || m."id" || '"') > 0)
  OR EXISTS (SELECT 1 FROM "entry_submissions" s JOIN "mission_entries" e ON e."id" = s."entry_id" WHERE e."user_id" = m."owner_id" AND strpos(s."answers"::text, '"' || m."id" || '"') > 0)
  OR EXISTS (SELECT 1 FROM "missions" mi WHERE strpos(mi."instructions", '/api/media/' || m."id") > 0);--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP COLUMN "decision";--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP COLUMN "reason";--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP COLUMN "decided_by";--> statement-breakpoint
ALTER TABLE "entry_submissions" DROP COLUMN "decided_at";--> statement-breakpoint
-- Issue 13 §1 (docs/permissions.md, "Secrets: where they could be written down"): stored client
-- reports lose their link tokens and secrets, as src/shared/redact.ts takes them out of new ones:
-- the token segment of /onboarding/, /reset-password/ and /update-email/ becomes [token], the
-- value of a secret-like query parameter (after ? & # ; or %3F %26) [redacted], and in the data
-- the string or number value of a secret-like key [redacted]. The url, the browser and the data
-- (as JSON text: the patterns never cross a JSON string's quotes, so it stays valid JSON) are
-- cleaned; the hash is left as it was (it no longer matches the content, which is harmless: no
-- new report can have it). tests/api/reports.test.ts checks this agrees with redact.ts.
WITH "patterns" AS (
  SELECT
    '((?:/|%2F)(?:reset-password|update-email|onboarding)(?:/|%2F))(?!\[token\])[^[:cntrl:] /?#&"''`\\<>(){}|:,;]+'::text AS "token_segment",
    '([?&#;]|%3F|%26)( *)([A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[_-]?key|session)[A-Za-z0-9_.-]*|pid|k|key|code|pwd|pass|auth|authorization|sig|signature|otp|sid|jwt)(=|%3D)(?!\[redacted\])[^[:cntrl:] &#"''`\\<>(){}|;]+'::text AS "secret_param",
    '("(?:[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[_-]?key)[A-Za-z0-9_.-]*|pid|k|pwd|auth|authorization|cookie|set-cookie|session|session_?id|sid|sig|signature|otp|jwt)"[[:space:]]*:[[:space:]]*)(?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)'::text AS "secret_key"
), "cleaned" AS (
  SELECT r."id",
    regexp_replace(regexp_replace(r."url", p."token_segment", '\1[token]', 'gi'), p."secret_param", '\1\2\3\4[redacted]', 'gi') AS "url",
    regexp_replace(regexp_replace(r."user_agent", p."token_segment", '\1[token]', 'gi'), p."secret_param", '\1\2\3\4[redacted]', 'gi') AS "user_agent",
    regexp_replace(regexp_replace(regexp_replace(r."data"::text, p."secret_key", '\1"[redacted]"', 'gi'), p."token_segment", '\1[token]', 'gi'), p."secret_param", '\1\2\3\4[redacted]', 'gi')::jsonb AS "data"
  FROM "client_reports" r CROSS JOIN "patterns" p
)
UPDATE "client_reports" r SET "url" = c."url", "user_agent" = c."user_agent", "data" = c."data"
FROM "cleaned" c
WHERE r."id" = c."id" AND (r."url" IS DISTINCT FROM c."url" OR r."user_agent" IS DISTINCT FROM c."user_agent" OR r."data" IS DISTINCT FROM c."data");--> statement-breakpoint
