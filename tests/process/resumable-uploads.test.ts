/**
 * Resumable uploads (tus, `/api/uploads`) against the real server: a photo sent in chunks, the
 * server killed (SIGKILL) in the middle of a chunk, started again on the same data folder; HEAD
 * says how much arrived (at least every chunk answered before the kill), the client goes on from
 * there, and the photo is processed by the restarted server's `media.process` job into a ready one.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadState } from '../../src/shared/media.ts';
import { freePort, runCliAsync, startServerProcess, type ServerProcess } from '../support/processes.ts';

const PASSWORD = 'Resum3-uploads!';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('resumable uploads survive a killed server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-tus-'));
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  let cookie = '';
  let photo: Buffer;

  const headers = (extra: Record<string, string> = {}) => ({ Origin: server?.url ?? '', Cookie: cookie, 'Tus-Resumable': '1.0.0', ...extra });

  beforeAll(async () => {
    photo = await sharp({
      create: { width: 1400, height: 1000, channels: 3, background: { r: 120, g: 120, b: 120 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    env = { DATA_DIR: dataDir, PORT: String(await freePort()) };
    server = await startServerProcess(env);
    const created = await runCliAsync(
      ['user:create', '--email', 'field@example.org', '--password', PASSWORD, '--role', 'participant', '--first-name', 'Field', '--last-name', 'Worker'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'field@example.org', password: PASSWORD }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    cookie = (res.headers.getSetCookie().find((line) => line.startsWith('fw_session=')) ?? '').split(';')[0] ?? '';
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every byte answered before a SIGKILL, and the client resumes from the offset HEAD gives after the restart', async () => {
    if (!server) throw new Error('no server');
    const chunk = Math.ceil(photo.byteLength / 3);
    const created = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: headers({ 'Upload-Length': String(photo.byteLength), 'Upload-Metadata': `filename ${b64('shelf.jpg')},filetype ${b64('image/jpeg')}` }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]{22}$/);

    // The first chunk arrives whole.
    const first = await fetch(`${server.url}${location}`, {
      method: 'PATCH',
      headers: headers({ 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }),
      body: new Uint8Array(photo.subarray(0, chunk)),
    });
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(chunk));

    // The second is cut: half its bytes are sent, then the server is killed.
    const url = new URL(`${server.url}${location}`);
    const cut = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'PATCH',
      headers: headers({ 'Upload-Offset': String(chunk), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(chunk) }),
    });
    const cutDone = new Promise<void>((resolve) => {
      cut.on('error', () => resolve());
      cut.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
    });
    cut.write(photo.subarray(chunk, chunk + Math.floor(chunk / 2)));
    await sleep(1_000);
    await server.stop('SIGKILL');
    await cutDone;

    // Started again on the same data folder (and port).
    server = await startServerProcess(env);
    const asked = await fetch(`${server.url}${location}`, { method: 'HEAD', headers: headers() });
    expect(asked.status).toBe(200);
    const offset = Number(asked.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(chunk);
    expect(offset).toBeLessThanOrEqual(chunk + Math.floor(chunk / 2));
    expect(asked.headers.get('upload-length')).toBe(String(photo.byteLength));

    // The client goes on from there to the end.
    const rest = await fetch(`${server.url}${location}`, {
      method: 'PATCH',
      headers: headers({ 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
      body: new Uint8Array(photo.subarray(offset)),
    });
    expect(rest.status, await rest.clone().text()).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(photo.byteLength));

    // The restarted server's worker processes it: a ready photo, the same bytes as sent (its size says so).
    let state: UploadState | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${server.url}${location}`, { headers: { Cookie: cookie } });
      state = (await res.json()) as UploadState;
      if (state.status === 'ready' || state.status === 'failed') break;
      await sleep(250);
    }
    expect(state).toMatchObject({ kind: 'photo', status: 'ready', reason: null });
    const served = await fetch(`${server.url}/api/media/${state?.mediaId ?? ''}`, { headers: { Cookie: cookie } });
    expect(served.status).toBe(200);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1400, 1000]);
  }, 180_000);
});
