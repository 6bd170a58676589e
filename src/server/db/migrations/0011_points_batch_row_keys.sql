-- Points bulk update (issue 27 §1, decision 015): each batch row keeps the ledger reference it is
-- credited under — `bulk:ref:<reference>`, or for a row without a reference
-- `bulk:row:<digest of user, points, reason>:<occurrence>` — so a corrected file finds the rows
-- credited before. Existing rows and ledger entries keep what they have (a batch previewed before
-- this migration is previewed again before it can be applied).
ALTER TABLE "points_batch_rows" ADD COLUMN "ledger_reference" text;--> statement-breakpoint
ALTER TABLE "points_batch_rows" ADD COLUMN "occurrence" integer;
