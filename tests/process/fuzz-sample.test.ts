/**
 * A small sample of `npm run fuzz` (docs/fuzzing.md) on every `npm test`: a few hundred hostile
 * requests with a fixed seed against a real server, with the same properties (no 5xx, no hang,
 * no dropped connection, every 4xx in the one error shape). And the requests the fuzzer found
 * bugs with, each kept as a case of its own.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorShape, runFuzz, startFuzzServer, summary, type FuzzServer } from '../fuzz/harness.ts';

const SAMPLE_RUNS = 300;
const SAMPLE_SEED = 20_261_125;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own. */
function request(url: string, method: string, target: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = http.request({
      host: hostname,
      port,
      method,
      path: target,
      headers: { ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(body);
  });
}

describe('fuzzing sample', () => {
  let fuzz: FuzzServer;
  let adminCookie = '';

  /** The fuzz admin's session cookie, signed in afresh: the sample's hostile requests may end the sessions it had (sign-out everywhere). */
  async function signInAdmin(): Promise<void> {
    const res = await fetch(`${fuzz.url}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: fuzz.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'fuzz-admin@example.org', password: 'Fuzz-me-hard-1!' }),
    });
    expect(res.status).toBe(200);
    adminCookie = (res.headers.getSetCookie().find((line) => line.startsWith('fw_session=')) ?? '').split(';')[0] ?? '';
  }

  beforeAll(async () => {
    fuzz = await startFuzzServer();
    await signInAdmin();
  });

  afterAll(async () => {
    await fuzz?.stop();
  });

  it(`${SAMPLE_RUNS} hostile requests (seed ${SAMPLE_SEED}): no 5xx, no hang, no dropped connection, every 4xx in the error shape`, async () => {
    const result = await runFuzz({ url: fuzz.url, env: fuzz.env, runs: SAMPLE_RUNS, seed: SAMPLE_SEED, serverOutput: fuzz.server.output });
    expect(result.failure, result.failure ?? '').toBeNull();
    expect(result.stats.cases, summary(result)).toBeGreaterThanOrEqual(SAMPLE_RUNS);
  }, 60_000);

  it('found by the fuzzer: a body key named like an inherited member (__proto__, constructor) is a 400 naming it, not a 500', async () => {
    for (const body of ['{"__proto__":1e309}', '{"constructor":1}', '{"toString":[]}']) {
      const res = await request(fuzz.url, 'POST', '/api/reports', { Origin: fuzz.url, 'Content-Type': 'application/json' }, body);
      expect(res.status, res.body).toBe(400);
      expect(isErrorShape(res.body), res.body).toBe(true);
    }
  });

  it('found by the fuzzer: a multipart body cut short in an admin tool upload is a 400, and the server keeps serving', async () => {
    const cut = Buffer.from('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nparticipant,points');
    const ignoredPart = Buffer.from('--xyz\r\nContent-Disposition: form-data; name="other"; filename="b.csv"\r\n\r\nabc');
    await signInAdmin();
    for (const target of ['/api/admin/tools/points-bulk-update/preview', '/api/admin/tools/alchemer-export-append/preview']) {
      for (const body of [cut, ignoredPart]) {
        const res = await request(
          fuzz.url,
          'POST',
          target,
          { Origin: fuzz.url, Cookie: adminCookie, 'Content-Type': 'multipart/form-data; boundary=xyz' },
          body,
        );
        expect(res.status, `${target}: ${res.body}`).toBe(400);
        expect(isErrorShape(res.body), res.body).toBe(true);
      }
    }
    expect((await request(fuzz.url, 'GET', '/api/health', {})).status).toBe(200);
  });

  it('found by the fuzzer: a request line over 16 KB gets 431 in the error shape with Connection: close (not a bare status line and a reset)', async () => {
    const res = await request(fuzz.url, 'POST', `/api/contact?q=${'a'.repeat(20_000)}`, { Origin: fuzz.url, 'Content-Type': 'application/json' }, '{}');
    expect(res.status).toBe(431);
    expect(res.headers.connection).toBe('close');
    expect(isErrorShape(res.body), res.body).toBe(true);
  });
});
