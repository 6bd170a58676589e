-- Content in several languages (issue 31 §2, decision 035): the language a response or mission entry was
-- answered in (null: the version's source language), and surveys' and missions' own texts translated.
ALTER TABLE "survey_responses" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "surveys" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mission_entries" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;