-- Notifications in the reader's language (issue 31 §1): what happened as a message and its values,
-- said when read or mailed (services/notices.ts); rows before it keep their English text.
ALTER TABLE "notifications" ADD COLUMN "notice" jsonb;