CREATE TABLE "points_batch_rows" (
	"batch_id" integer NOT NULL,
	"line" integer NOT NULL,
	"participant" text NOT NULL,
	"user_id" integer,
	"points_text" text NOT NULL,
	"points" integer,
	"reason" text NOT NULL,
	"reference" text,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"result" text,
	"ledger_id" integer,
	CONSTRAINT "points_batch_rows_batch_id_line_pk" PRIMARY KEY("batch_id","line")
);
--> statement-breakpoint
CREATE TABLE "points_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"content_hash" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"column_map" jsonb NOT NULL,
	"rows" integer NOT NULL,
	"matched" integer NOT NULL,
	"problem_count" integer NOT NULL,
	"total_positive" integer DEFAULT 0 NOT NULL,
	"total_negative" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_by" integer,
	"applied_at" timestamp with time zone,
	"excluded_problem_rows" boolean DEFAULT false NOT NULL,
	"applied_rows" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "points_batches_status_check" CHECK ("points_batches"."status" in ('previewed', 'applied'))
);
--> statement-breakpoint
CREATE TABLE "review_exports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" integer,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"rows" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "product_id" text;--> statement-breakpoint
ALTER TABLE "points_batch_rows" ADD CONSTRAINT "points_batch_rows_batch_id_points_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."points_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_batch_rows" ADD CONSTRAINT "points_batch_rows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_batches" ADD CONSTRAINT "points_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_batches" ADD CONSTRAINT "points_batches_applied_by_users_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_exports" ADD CONSTRAINT "review_exports_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_exports" ADD CONSTRAINT "review_exports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "points_batches_content_hash_idx" ON "points_batches" USING btree ("content_hash");--> statement-breakpoint
CREATE INDEX "points_batches_created_idx" ON "points_batches" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "review_exports_created_idx" ON "review_exports" USING btree ("created_at","id");--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "birth_year" integer;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_birth_year_check" CHECK ("users"."birth_year" between 1900 and 2100);
