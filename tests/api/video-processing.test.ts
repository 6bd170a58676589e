/**
 * Video processing (issue 33 §4) on clips ffmpeg generates at test time (`testsrc`, small and
 * short): metadata (a location above all) is gone afterwards, a 4K clip comes out at 1080p, a
 * corrupt or too long file fails with the participant's reason, and the job's function stores a
 * ready video. Needs Debian's `ffmpeg` (installed by `.ci/run`).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { newMediaId } from '../../src/server/services/media.ts';
import { locationTags, MediaProcessingFailed, probeVideo, processVideo, videoProcessor, type ProcessedVideo } from '../../src/server/services/video.ts';
import { VIDEO_LIMITS, VIDEO_MESSAGES } from '../../src/shared/media.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { signedInUser } from './helpers.ts';

const LOCATION = '+48.8584+002.2945/';

let dir: string;
const clip = (name: string) => path.join(dir, name);

/** Runs ffmpeg to make a fixture (argument array, no shell). */
function ffmpeg(args: string[]): void {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr}`);
}

/** A fresh, empty work folder. */
const workDir = () => fs.mkdtempSync(path.join(dir, 'work-'));

/** The promise's MediaProcessingFailed, or a failure of the test. */
async function failure(promise: Promise<unknown>): Promise<MediaProcessingFailed> {
  const error: unknown = await promise.then(
    () => new Error('processing succeeded'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MediaProcessingFailed);
  return error as MediaProcessingFailed;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-video-test-'));
  const testsrc = (size: string, rate: number) => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`];
  const sine = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'];
  // H.264 + AAC, 2 s, with a place written three ways (QuickTime's ©xyz and its ISO 6709 key) and a title.
  ffmpeg([
    ...testsrc('320x240', 25),
    ...sine,
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    'use_metadata_tags',
    '-metadata',
    `location=${LOCATION}`,
    '-metadata',
    `com.apple.quicktime.location.ISO6709=${LOCATION}`,
    '-metadata',
    'title=Kitchen at home',
    '-metadata:s:v',
    `location=${LOCATION}`,
    clip('located.mp4'),
  ]);
  // A phone held upright: the same picture stored landscape with a quarter turn to apply (a display matrix).
  ffmpeg(['-i', clip('located.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', clip('portrait.mp4')]);
  // 4K (3840×2160), 1 s at 5 frames a second.
  ffmpeg([...testsrc('3840x2160', 5), '-t', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip('4k.mp4')]);
  // A browser's recording: VP9 + Opus in WebM.
  ffmpeg([
    ...testsrc('320x240', 10),
    ...sine,
    '-t',
    '1',
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-c:a',
    'libopus',
    clip('recorded.webm'),
  ]);
  // 4 s, for a question that allows 2.
  ffmpeg([...testsrc('160x120', 10), '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip('long.mp4')]);
  // An MP4's `ftyp` box, then random bytes.
  fs.writeFileSync(clip('corrupt.mp4'), Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom\0\0\0\0isomiso2', 'latin1'), randomBytes(4000)]));
  fs.writeFileSync(clip('text.mp4'), 'not a video at all, only words');
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('processVideo', () => {
  let located: ProcessedVideo;

  it('drops every tag (the location above all: ffprobe proves it gone), keeps H.264 + AAC as they are, and makes a WebP poster', async () => {
    const input = await probeVideo(clip('located.mp4'));
    expect(locationTags(input).length).toBeGreaterThanOrEqual(2);
    expect(input.tags.title).toBe('Kitchen at home');

    located = await processVideo({ sourcePath: clip('located.mp4'), workDir: workDir() });
    expect(located).toMatchObject({ width: 320, height: 240, posterWidth: 320, posterHeight: 240, videoCopied: true });
    expect(located.durationMs).toBeGreaterThanOrEqual(1900);
    expect(located.durationMs).toBeLessThanOrEqual(2100);
    expect(located.bytes).toBe(fs.statSync(located.videoPath).size);

    const output = await probeVideo(located.videoPath);
    expect(locationTags(output)).toEqual([]);
    expect(output.tags.title).toBeUndefined();
    expect(JSON.stringify(output)).not.toContain('48.8584');
    expect(fs.readFileSync(located.videoPath).includes(Buffer.from('48.8584'))).toBe(false);
    expect(output.streams.map((stream) => [stream.codecType, stream.codecName])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    // +faststart: the index (moov) comes before the media data (mdat).
    const bytes = fs.readFileSync(located.videoPath);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));

    const poster = await sharp(located.posterPath).metadata();
    expect(poster).toMatchObject({ format: 'webp', width: 320, height: 240 });
    expect(poster.exif).toBeUndefined();
  });

  it('brings a 4K clip down to 1080p (H.264, yuv420p)', async () => {
    const processed = await processVideo({ sourcePath: clip('4k.mp4'), workDir: workDir() });
    expect(processed).toMatchObject({ width: 1920, height: 1080, videoCopied: false });
    const output = await probeVideo(processed.videoPath);
    expect(output.streams).toHaveLength(1);
    expect(output.streams[0]).toMatchObject({ codecName: 'h264', pixFmt: 'yuv420p', width: 1920, height: 1080 });
    expect(Math.max(processed.posterWidth, processed.posterHeight)).toBeLessThanOrEqual(VIDEO_LIMITS.outputSide);
  });

  it('gives a portrait video its size as shown, copied with its turn, and a portrait poster', async () => {
    const processed = await processVideo({ sourcePath: clip('portrait.mp4'), workDir: workDir() });
    expect(processed).toMatchObject({ width: 240, height: 320, posterWidth: 240, posterHeight: 320, videoCopied: true });
    expect((await probeVideo(processed.videoPath)).streams[0]?.rotation).toBe(90);
  });

  it('encodes a WebM recording (VP9 + Opus) to H.264 + AAC in MP4', async () => {
    const processed = await processVideo({ sourcePath: clip('recorded.webm'), workDir: workDir() });
    expect(processed).toMatchObject({ width: 320, height: 240, videoCopied: false });
    const output = await probeVideo(processed.videoPath);
    expect(output.formatName).toContain('mp4');
    expect(output.streams.map((stream) => stream.codecName)).toEqual(['h264', 'aac']);
  });

  it('fails a corrupt file, a file that is no video, one too long and one over the time limit, each with its reason', async () => {
    expect((await failure(processVideo({ sourcePath: clip('corrupt.mp4'), workDir: workDir() }))).reason).toBe(VIDEO_MESSAGES.unreadable);
    expect((await failure(processVideo({ sourcePath: clip('text.mp4'), workDir: workDir() }))).reason).toBe(VIDEO_MESSAGES.notAVideo);
    const tooLong = await failure(processVideo({ sourcePath: clip('long.mp4'), workDir: workDir(), maxSeconds: 2 }));
    expect(tooLong.reason).toBe(VIDEO_MESSAGES.tooLong(2));
    expect(tooLong.message).toBe('This video is longer than 2 seconds');
    // 4 s is within 3 s + the 1 s leeway.
    expect((await processVideo({ sourcePath: clip('long.mp4'), workDir: workDir(), maxSeconds: 3 })).durationMs).toBeGreaterThan(3000);
    const late = await failure(processVideo({ sourcePath: clip('4k.mp4'), workDir: workDir(), timeLimitMs: 1 }));
    expect(late.reason).toBe(VIDEO_MESSAGES.processingTimedOut);
  });
});

describe('videoProcessor (what the media.process job calls) [pglite]', () => {
  let ctx: TestContext;
  let close: () => Promise<void>;
  let workRoot: string;
  beforeAll(async () => {
    ({ context: ctx, close } = await createTestContext('pglite'));
    workRoot = fs.mkdtempSync(path.join(dir, 'jobs-'));
  });
  afterAll(() => close());

  async function processingRow(ownerId: number): Promise<string> {
    const id = newMediaId();
    await ctx.database.db.insert(media).values({ id, ownerId, kind: 'video', status: 'processing', uploadedBytes: 1000 });
    return id;
  }

  it('stores the MP4 and the poster and makes the row a ready video; a corrupt file throws its reason and leaves no work files', async () => {
    const owner = await signedInUser(ctx);
    const process = videoProcessor({ db: ctx.database.db, storage: ctx.storage, logger: createLogger('silent'), workRoot });

    const id = await processingRow(owner.id);
    await process({ mediaId: id, sourcePath: clip('located.mp4') });
    const [row] = await ctx.database.db.select().from(media).where(eq(media.id, id));
    expect(row).toMatchObject({
      kind: 'video',
      status: 'ready',
      contentType: 'video/mp4',
      width: 320,
      height: 240,
      displayKey: `${id}/video.mp4`,
      thumbnailKey: `${id}/poster.webp`,
      thumbnailWidth: 320,
      thumbnailHeight: 240,
      failureReason: null,
    });
    expect(row?.durationMs).toBeGreaterThan(1900);
    expect(await ctx.storedKeys(`${id}/`)).toEqual([`${id}/poster.webp`, `${id}/video.mp4`]);
    expect((await ctx.storage.stat(`${id}/video.mp4`))?.bytes).toBe(row?.bytes);
    expect(fs.existsSync(clip('located.mp4'))).toBe(true); // the source is the caller's

    const broken = await processingRow(owner.id);
    const error = await failure(process({ mediaId: broken, sourcePath: clip('corrupt.mp4') }));
    expect(error.reason).toBe(VIDEO_MESSAGES.unreadable);
    const [still] = await ctx.database.db.select().from(media).where(eq(media.id, broken));
    expect(still?.status).toBe('processing'); // the job marks it failed
    expect(await ctx.storedKeys(`${broken}/`)).toEqual([]);
    expect(fs.readdirSync(workRoot)).toEqual([]);
  });
});
