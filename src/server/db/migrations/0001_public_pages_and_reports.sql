CREATE TABLE "contact_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "contact_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"user_id" integer,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "data_deletion_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_deletion_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"email" text NOT NULL,
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"handled_at" timestamp with time zone,
	"handled_by" integer,
	CONSTRAINT "data_deletion_requests_status_check" CHECK ("data_deletion_requests"."status" in ('pending', 'confirmed', 'completed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "tokens" DROP CONSTRAINT "tokens_type_check";--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_deletion_requests" ADD CONSTRAINT "data_deletion_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_deletion_requests" ADD CONSTRAINT "data_deletion_requests_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_created_at_idx" ON "contact_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "data_deletion_requests_created_at_idx" ON "data_deletion_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "data_deletion_requests_user_idx" ON "data_deletion_requests" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_type_check" CHECK ("tokens"."type" in ('onboarding', 'reset-password', 'update-email', 'verify-email', 'data-deletion'));