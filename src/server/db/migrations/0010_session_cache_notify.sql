-- The embedded database's in-process session cache (src/server/services/sessions.ts) drops an
-- entry the moment its user or session row changes: every update or delete of either notifies
-- the channel `fw_session_changed` with `u<user id>` or `s<session id>`, and a truncate with `*`.
-- Nothing listens on PostgreSQL (several processes share it, so no process caches sessions there);
-- a notification on a channel nobody listens to costs little, and these tables change rarely.
CREATE OR REPLACE FUNCTION fw_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('fw_session_changed', '*');
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('fw_session_changed', 'u' || OLD.id);
  ELSE
    PERFORM pg_notify('fw_session_changed', 's' || OLD.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_session_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION fw_session_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_session_changed AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION fw_session_changed();
--> statement-breakpoint
CREATE TRIGGER users_session_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION fw_session_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_session_truncated AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION fw_session_changed();
