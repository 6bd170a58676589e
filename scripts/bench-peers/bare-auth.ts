/**
 * The reference `npm run bench` measures `GET /api/auth` against (issue: "half of bare Node on the
 * API"): a bare `node:http` server and a `pg` pool doing the same signed-in lookup on the same
 * PostgreSQL — the session cookie's SHA-256, one prepared query joining the session to its user,
 * the same JSON answer — and nothing else (no framework, no middleware, no headers but the
 * content type). Run as its own process: `DATABASE_URL=… PORT=… node scripts/bench-peers/bare-auth.ts`.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const LOOKUP = {
  name: 'bare_session_lookup',
  text:
    'select u.id, u.email, u.first_name, u.last_name, u.role, u.status from sessions s join users u on u.id = s.user_id ' +
    'where s.id = $1 and s.expires_at > $2 limit 1',
};

const server = http.createServer((request, response) => {
  const token = /(?:^|;\s*)fw_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    response.end(text);
  };
  // The bench waits for /api/health before it starts, as it does for Fieldwork.
  if (request.url === '/api/health') return answer(200, { status: 'ok' });
  if (request.url !== '/api/auth' || !token) return answer(401, { error: { code: 'unauthorized' } });
  const id = createHash('sha256').update(token).digest('hex');
  pool
    .query({ ...LOOKUP, values: [id, new Date().toISOString()] })
    .then(({ rows }) => {
      const user = rows[0] as { id: number; email: string; first_name: string; last_name: string; role: string; status: string } | undefined;
      if (!user || user.status !== 'active') return answer(401, { error: { code: 'unauthorized' } });
      return answer(200, { id: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name, role: user.role, status: user.status });
    })
    .catch(() => answer(500, { error: { code: 'internal_error' } }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`bare auth on ${process.env.PORT}`));
process.once('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
