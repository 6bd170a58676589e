-- Provider fulfilment (issue 30 §4): the gift-card provider's webhook events already handled (a
-- repeated delivery changes nothing), and the redemptions found by the provider's order id.
CREATE TABLE "reward_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE INDEX "redemptions_provider_order_idx" ON "redemptions" USING btree ("provider_order_id");