/**
 * Upload throughput (issue 33 §3): a 200 MB video-like file (an MP4 `ftyp` box, then random bytes)
 * through the resumable endpoint (`/api/uploads`, tus, 8 MiB PATCHes one after the other), against
 * the multipart call (`POST /api/media`) with the largest photo it takes (≤ 20 MB: the call only
 * takes photos, re-encoded before it answers). Reports MB/s of each and the server's peak resident
 * memory (VmRSS, sampled every 20 ms) during the tus upload. The file is not a real video: its
 * processing (`media.process`, not timed) fails after the last byte; `scripts/bench-video.ts`
 * times the processing of real clips.
 *
 * `npm run bench:uploads` (one server on embedded PGlite in a temporary data folder, loopback);
 * writes the "uploads" section of docs/benchmarks.md. `npm run bench` runs it too (`benchUploads`,
 * `uploadsBenchTable`; BENCH_UPLOADS=0 skips it) and writes the section with BENCH_WRITE=1.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { MEDIA_LIMITS, UPLOAD_LIMITS } from '../src/shared/media.ts';
import { runCliAsync } from '../tests/support/processes.ts';
import { freePort, runIfMain, spawnServer, stopServer, waitForHealth, writeBenchmarksSection } from './bench-server.ts';

const MB = 1_000_000;
/** How busy the machine was before the bench began (1-minute load average). */
const LOAD_AT_START = os.loadavg()[0] ?? 0;
const MiB = 1024 * 1024;
const VIDEO_BYTES = 200 * MB;
const PASSWORD = 'Bench-upl0ads!';

function rssBytes(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The largest noise JPEG under the multipart limit that sharp makes quickly enough (about 15–19 MB). */
async function largestPhoto(): Promise<Buffer> {
  let side = 4200;
  for (;;) {
    const made = await sharp({
      create: {
        width: side,
        height: Math.round(side * 0.75),
        channels: 3,
        background: { r: 128, g: 128, b: 128 },
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 100 })
      .toBuffer();
    if (made.byteLength <= MEDIA_LIMITS.maxBytes) return made;
    side = Math.floor(side * 0.93);
  }
}

function videoLike(bytes: number): Buffer {
  const body = randomBytes(bytes);
  Buffer.from([0, 0, 0, 0x18]).copy(body, 0);
  Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1').copy(body, 4);
  return body;
}

/** What one run measured. */
export interface UploadsBenchResult {
  photoBytes: number;
  /** Median of three multipart uploads (upload and re-encoding). */
  multipartMs: number;
  videoBytes: number;
  tusMs: number;
  /** The server's resident memory before the tus upload and at its peak during it. */
  rssBefore: number;
  rssPeak: number;
}

/** Starts a server of its own, measures both uploads, stops it. */
export async function benchUploads(): Promise<UploadsBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-uploads-'));
  const port = await freePort();
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const server = spawnServer(env, port);
  try {
    await waitForHealth(server);
    const created = await runCliAsync(
      [
        'user:create',
        '--email',
        'bench-uploads@example.org',
        '--password',
        PASSWORD,
        '--role',
        'participant',
        '--first-name',
        'Bench',
        '--last-name',
        'Uploads',
      ],
      { DATA_DIR: dataDir, PORT: String(port) },
    );
    if (created.code !== 0) throw new Error(created.stderr);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'bench-uploads@example.org', password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in: ${login.status}`);
    const cookie = (login.headers.getSetCookie().find((line) => line.startsWith('fw_session=')) ?? '').split(';')[0] ?? '';
    const pid = server.child.pid ?? 0;

    // Multipart: the largest photo the call takes, three times (upload and re-encoding: the answer comes after both).
    const photo = await largestPhoto();
    const multipartRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'big.jpg');
      const started = performance.now();
      const res = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Origin: server.url, Cookie: cookie }, body: form });
      await res.text();
      if (res.status !== 201) throw new Error(`multipart: ${res.status}`);
      multipartRuns.push(performance.now() - started);
    }
    const multipartMs = [...multipartRuns].sort((a, b) => a - b)[1] ?? 0;

    // tus: 200 MB in 8 MiB PATCHes.
    const video = videoLike(VIDEO_BYTES);
    const rssBefore = rssBytes(pid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
    const tusHeaders = { Origin: server.url, Cookie: cookie, 'Tus-Resumable': '1.0.0' };
    const started = performance.now();
    const creation = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: {
        ...tusHeaders,
        'Upload-Length': String(video.byteLength),
        'Upload-Metadata': `filename ${Buffer.from('bench.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
      },
    });
    if (creation.status !== 201) throw new Error(`tus creation: ${creation.status} ${await creation.text()}`);
    const location = creation.headers.get('location') ?? '';
    for (let offset = 0; offset < video.byteLength; offset += UPLOAD_LIMITS.chunkBytes) {
      const res = await fetch(`${server.url}${location}`, {
        method: 'PATCH',
        headers: { ...tusHeaders, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(video.subarray(offset, offset + UPLOAD_LIMITS.chunkBytes)),
      });
      if (res.status !== 204) throw new Error(`tus PATCH at ${offset}: ${res.status} ${await res.text()}`);
    }
    const tusMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));

    return { photoBytes: photo.byteLength, multipartMs, videoBytes: video.byteLength, tusMs, rssBefore, rssPeak: peak };
  } finally {
    await stopServer(server).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The "uploads" section of docs/benchmarks.md. */
export function uploadsBenchTable(result: UploadsBenchResult): string {
  const { photoBytes, multipartMs, videoBytes, tusMs, rssBefore, rssPeak } = result;
  const mbps = (bytes: number, ms: number) => (bytes / MB / (ms / 1000)).toFixed(1);
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:uploads\` (one server, embedded PGlite, loopback, ${os.cpus().length} cores, load average ${LOAD_AT_START.toFixed(1)} at the start: with other work on the machine the figures are lower bounds).`,
    '',
    '| Upload | Bytes | Time | Throughput |',
    '| --- | ---: | ---: | ---: |',
    `| \`POST /api/media\` multipart, the largest photo it takes (median of 3; includes re-encoding) | ${(photoBytes / MB).toFixed(1)} MB | ${(multipartMs / 1000).toFixed(2)} s | ${mbps(photoBytes, multipartMs)} MB/s |`,
    `| \`/api/uploads\` tus, a video-like file in ${UPLOAD_LIMITS.chunkBytes / MiB} MiB PATCHes (processing not timed) | ${(videoBytes / MB).toFixed(0)} MB | ${(tusMs / 1000).toFixed(2)} s | ${mbps(videoBytes, tusMs)} MB/s |`,
    '',
    `Server memory during the tus upload: ${(rssBefore / MiB).toFixed(0)} MiB resident before, ${(rssPeak / MiB).toFixed(0)} MiB at its peak (+${((rssPeak - rssBefore) / MiB).toFixed(0)} MiB for a 200 MB upload: the bytes are streamed to the upload store, never held).`,
  ].join('\n');
}

runIfMain(import.meta.url, async () => {
  const table = uploadsBenchTable(await benchUploads());
  console.log(table);
  writeBenchmarksSection('uploads', table);
});
