-- Rewards (issue 30): the catalogue, the community's settings (one row) and redemptions; the points
-- ledger learns a `held` state and a `redemption` source (a redemption's points, held while it is
-- open: posted as `available` when delivered, `voided` when released); users.tax_form_on_file_at.
CREATE TABLE "redemptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"reward_id" integer NOT NULL,
	"value_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"points" integer NOT NULL,
	"status" text NOT NULL,
	"needs_review" boolean DEFAULT true NOT NULL,
	"reason" text,
	"idempotency_key" text NOT NULL,
	"provider_order_id" text,
	"delivery_sealed" text,
	"note" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by" integer,
	"ordering_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"delivered_by" integer,
	"rejected_at" timestamp with time zone,
	"rejected_by" integer,
	"failed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redemptions_status_check" CHECK ("redemptions"."status" in ('requested', 'approved', 'ordering', 'delivered', 'rejected', 'failed', 'cancelled')),
	CONSTRAINT "redemptions_points_check" CHECK ("redemptions"."points" > 0 and "redemptions"."value_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "reward_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_settings_one_row" CHECK ("reward_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "rewards" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rewards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"fulfilment" text NOT NULL,
	"provider_product_id" text,
	"currency" text NOT NULL,
	"denominations" jsonb NOT NULL,
	"countries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"image_media_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"stock" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rewards_kind_check" CHECK ("rewards"."kind" in ('gift_card', 'donation', 'custom')),
	CONSTRAINT "rewards_fulfilment_check" CHECK ("rewards"."fulfilment" in ('manual', 'provider')),
	CONSTRAINT "rewards_stock_check" CHECK ("rewards"."stock" is null or "rewards"."stock" >= 0)
);
--> statement-breakpoint
ALTER TABLE "points_ledger" DROP CONSTRAINT "points_ledger_state_check";--> statement-breakpoint
ALTER TABLE "points_ledger" DROP CONSTRAINT "points_ledger_source_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "tax_form_on_file_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_reward_id_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."rewards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_delivered_by_users_id_fk" FOREIGN KEY ("delivered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_rejected_by_users_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_settings" ADD CONSTRAINT "reward_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_image_media_id_media_id_fk" FOREIGN KEY ("image_media_id") REFERENCES "public"."media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_user_key_idx" ON "redemptions" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "redemptions_user_requested_idx" ON "redemptions" USING btree ("user_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "redemptions_status_requested_idx" ON "redemptions" USING btree ("status","requested_at","id");--> statement-breakpoint
CREATE INDEX "redemptions_reward_idx" ON "redemptions" USING btree ("reward_id");--> statement-breakpoint
CREATE INDEX "rewards_active_idx" ON "rewards" USING btree ("active","id");--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_state_check" CHECK ("points_ledger"."state" in ('pending', 'available', 'voided', 'held'));--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_source_check" CHECK ("points_ledger"."source" in ('survey', 'mission', 'adjustment', 'bulk', 'external_survey', 'redemption'));