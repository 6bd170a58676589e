ALTER TABLE "media" ALTER COLUMN "content_type" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "width" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "height" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "display_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "thumbnail_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "thumbnail_width" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ALTER COLUMN "thumbnail_height" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "kind" text DEFAULT 'photo' NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
CREATE INDEX "media_uploading_idx" ON "media" USING btree ("expires_at") WHERE "media"."status" = 'uploading';