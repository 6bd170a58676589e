/**
 * Video answers (issue 33 §4): checking an uploaded video with Debian's `ffprobe`, making the
 * stored MP4 (H.264 + AAC, `yuv420p`, `+faststart`, at most 1080p, every metadata tag dropped)
 * and its poster frame (WebP through sharp) with `ffmpeg`, proving with `ffprobe` that no
 * location is left, and storing both. `ffmpeg` and `ffprobe` are spawned directly (no shell, an
 * argument array), one video at a time, at the lowest CPU priority, with a time limit.
 * `docs/decisions/038-field-capture.md`, "Videos", explains the choices.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { FORM_LIMITS } from '../../shared/forms/constants.ts';
import { VIDEO_LIMITS, VIDEO_MESSAGES } from '../../shared/media.ts';
import type { Db } from '../db/index.ts';
import { media } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';

/**
 * A video that cannot be made into a stored one: `reason` is what the participant is told
 * (`VIDEO_MESSAGES`, word for word); `detail` (ffmpeg's last words, for the log) never is.
 */
export class MediaProcessingFailed extends Error {
  readonly reason: string;
  readonly detail: string | undefined;
  constructor(reason: string, options: { detail?: string; cause?: unknown } = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MediaProcessingFailed';
    this.reason = reason;
    this.detail = options.detail;
  }
}

/** The x264 preset: `veryfast`, x264's usual trade of speed for size on a small server (figures: docs/benchmarks.md, "Video processing"). */
export const VIDEO_PRESET = 'veryfast';
/** x264's constant quality (lower is better; 23 is its default). */
export const VIDEO_CRF = 23;
/** AAC bit rate of re-encoded sound. */
export const AUDIO_BITRATE = '128k';
/** Threads of one ffmpeg: both cores of the production machine, at the lowest priority (the API always comes first). */
export const VIDEO_THREADS = 2;
/** Longest side of the poster frame (px, WebP): the player's still and the gallery's thumbnail. */
export const POSTER_SIDE = 960;
export const POSTER_WEBP_QUALITY = 75;
/** The poster is the frame at this time (s), or the first frame of a shorter video. */
export const POSTER_AT_SECONDS = 1;

/** How much of a tool's error output is kept for the log. */
const STDERR_TAIL = 4_000;
/** ffprobe's JSON is small; more than this is not a video we want. */
const STDOUT_LIMIT = 4 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// What a file is

/** The containers accepted, by their first bytes: ISO media (MP4, MOV, 3GP) and Matroska (WebM, MKV). */
export type VideoContainer = 'mov' | 'matroska';

const ISO_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/**
 * The container of a video file by its magic bytes, or null. ffmpeg is then told the format
 * (`-f mov` / `-f matroska`) instead of guessing it: a playlist (HLS, concat) dressed as a video
 * could otherwise make it read other files or URLs.
 */
export function sniffVideo(head: Uint8Array): VideoContainer | null {
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'matroska';
  if (head.length >= 8) {
    const box = String.fromCharCode(...head.subarray(4, 8));
    if (ISO_BOXES.has(box)) return 'mov';
  }
  return null;
}

async function readHead(file: string): Promise<Uint8Array> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = new Uint8Array(16);
    const { bytesRead } = await handle.read(buffer, 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Running the tools

/** `nice` when this system has one (Debian's coreutils), found once. */
let niceBinary: string | null | undefined;
function findNice(): string | null {
  if (niceBinary !== undefined) return niceBinary;
  niceBinary = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'nice');
    try {
      accessSync(candidate, fsConstants.X_OK);
      niceBinary = candidate;
      break;
    } catch {
      // not here
    }
  }
  return niceBinary;
}

class TimedOut extends Error {}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a tool at the lowest priority (`nice -n 19`, else `os.setPriority` on the child), no
 * shell, no input; killed (SIGKILL) at `deadline` (→ `TimedOut`) or when `signal` aborts.
 */
function run(command: string, args: string[], deadline: number, signal: AbortSignal | undefined): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      reject(new TimedOut());
      return;
    }
    const nice = findNice();
    const child = nice
      ? spawn(nice, ['-n', '19', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], shell: false })
      : spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    if (!nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // not allowed here: it runs at the normal priority
      }
    }
    let stdout = '';
    let stdoutBytes = 0;
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= STDOUT_LIMIT) stdout += chunk;
      else child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, remaining);
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (timedOut) reject(new TimedOut());
      else if (signal?.aborted) reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** The queue of videos: one processed at a time per process, the others wait in arrival order. */
let queueTail: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const result = queueTail.then(task, task);
  queueTail = result.catch(() => undefined);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Probing

export interface ProbedStream {
  index: number;
  codecType: string;
  codecName: string;
  pixFmt: string | null;
  width: number | null;
  height: number | null;
  /** Degrees the player turns the picture (a phone's display matrix), 0 when none. */
  rotation: number;
  tags: Record<string, string>;
}

export interface ProbedVideo {
  /** ffprobe's names for the container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`). */
  formatName: string;
  /** Null when the container does not say (a browser's WebM recording). */
  durationSeconds: number | null;
  streams: ProbedStream[];
  /** The container's tags. */
  tags: Record<string, string>;
}

const asTags = (value: unknown): Record<string, string> => {
  const tags: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [key, tag] of Object.entries(value)) tags[key] = String(tag);
  return tags;
};
const asNumber = (value: unknown): number | null => {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
};

function rotationOf(stream: Record<string, unknown>): number {
  const sideData = Array.isArray(stream.side_data_list) ? (stream.side_data_list as Record<string, unknown>[]) : [];
  for (const entry of sideData) {
    const rotation = asNumber(entry.rotation);
    if (rotation !== null) return rotation;
  }
  return asNumber(asTags(stream.tags).rotate) ?? 0;
}

/**
 * What ffprobe reads of a file (`-print_format json`): container, duration, streams and every
 * tag. `container` forces the demuxer (see `sniffVideo`). Unreadable → `MediaProcessingFailed`
 * (`VIDEO_MESSAGES.unreadable`).
 */
export async function probeVideo(file: string, options: { container?: VideoContainer; deadline?: number; signal?: AbortSignal } = {}): Promise<ProbedVideo> {
  const deadline = options.deadline ?? Date.now() + VIDEO_LIMITS.processingSeconds * 1000;
  const args = [
    '-v',
    'error',
    '-protocol_whitelist',
    'file',
    ...(options.container ? ['-f', options.container] : []),
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    `file:${file}`,
  ];
  const result = await run('ffprobe', args, deadline, options.signal);
  if (result.code !== 0) throw new MediaProcessingFailed(VIDEO_MESSAGES.unreadable, { detail: result.stderr });
  let parsed: { format?: Record<string, unknown>; streams?: Record<string, unknown>[] };
  try {
    parsed = JSON.parse(result.stdout) as typeof parsed;
  } catch (error) {
    throw new MediaProcessingFailed(VIDEO_MESSAGES.unreadable, { detail: 'ffprobe answered no JSON', cause: error });
  }
  const format = parsed.format ?? {};
  const streams = (parsed.streams ?? []).map((stream): ProbedStream => ({
    index: asNumber(stream.index) ?? 0,
    codecType: String(stream.codec_type ?? ''),
    codecName: String(stream.codec_name ?? ''),
    pixFmt: typeof stream.pix_fmt === 'string' ? stream.pix_fmt : null,
    width: asNumber(stream.width),
    height: asNumber(stream.height),
    rotation: rotationOf(stream),
    tags: asTags(stream.tags),
  }));
  const formatDuration = asNumber(format.duration);
  const streamDuration = (parsed.streams ?? []).map((stream) => asNumber(stream.duration)).find((value) => value !== null) ?? null;
  return { formatName: String(format.format_name ?? ''), durationSeconds: formatDuration ?? streamDuration, streams, tags: asTags(format.tags) };
}

/** Tag names that hold a place: QuickTime's `location` / `©xyz` / `com.apple.quicktime.location.ISO6709`, GPS tags of any kind. */
const LOCATION_TAG = /location|iso6709|xyz|gps|latitude|longitude/i;

/** Every tag of the container or a stream that holds a location (`stream 0: location`, …). */
export function locationTags(probe: ProbedVideo): string[] {
  const found = Object.keys(probe.tags)
    .filter((key) => LOCATION_TAG.test(key))
    .map((key) => `format: ${key}`);
  for (const stream of probe.streams) {
    for (const key of Object.keys(stream.tags)) if (LOCATION_TAG.test(key)) found.push(`stream ${stream.index}: ${key}`);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Processing

export interface ProcessedVideo {
  /** The MP4 (H.264 + AAC or no sound, `yuv420p`, `+faststart`, no metadata). */
  videoPath: string;
  /** The poster frame (WebP). */
  posterPath: string;
  /** As shown (a phone's rotation applied). */
  width: number;
  height: number;
  durationMs: number;
  /** Bytes of the MP4. */
  bytes: number;
  posterWidth: number;
  posterHeight: number;
  /** Whether the picture was copied as it was (already H.264 `yuv420p` ≤ 1080p) rather than encoded again. */
  videoCopied: boolean;
}

export interface ProcessVideoOptions {
  sourcePath: string;
  /** An empty folder for the outputs (the caller removes it). */
  workDir: string;
  /** The question's maximum length (s); `VIDEO_LIMITS.lengthLeewaySeconds` more is allowed. */
  maxSeconds?: number;
  signal?: AbortSignal;
  /** The time limit (ms) from when this video's turn comes; `VIDEO_LIMITS.processingSeconds` by default. */
  timeLimitMs?: number;
}

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
const quarterTurn = (rotation: number) => Math.abs(Math.round(rotation / 90)) % 2 === 1;

/** The size a picture is shown at, at most `VIDEO_LIMITS.outputSide` × `outputShortSide` (either way round), even. */
export function outputSize(width: number, height: number): { width: number; height: number } {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const factor = Math.min(1, VIDEO_LIMITS.outputSide / long, VIDEO_LIMITS.outputShortSide / short);
  return { width: even(width * factor), height: even(height * factor) };
}

/**
 * Makes the stored video and its poster from an upload, in this process's queue (one video at a
 * time). Throws `MediaProcessingFailed` with the participant's reason: not a video we take
 * (`notAVideo`), unreadable (`unreadable`), longer than `maxSeconds` + leeway (`tooLong`), over
 * the time limit (`processingTimedOut`, ffmpeg killed), or ffmpeg failing (`processingFailed`).
 */
export function processVideo(options: ProcessVideoOptions): Promise<ProcessedVideo> {
  return oneAtATime(() => processNow(options));
}

async function processNow(options: ProcessVideoOptions): Promise<ProcessedVideo> {
  const deadline = Date.now() + (options.timeLimitMs ?? VIDEO_LIMITS.processingSeconds * 1000);
  try {
    return await processWithin(options, deadline);
  } catch (error) {
    if (error instanceof TimedOut) throw new MediaProcessingFailed(VIDEO_MESSAGES.processingTimedOut, { detail: 'time limit reached: ffmpeg killed' });
    throw error;
  }
}

async function processWithin(options: ProcessVideoOptions, deadline: number): Promise<ProcessedVideo> {
  const { sourcePath, workDir, signal } = options;
  const maxSeconds = options.maxSeconds ?? FORM_LIMITS.videoMaxSeconds;
  const allowedSeconds = maxSeconds + VIDEO_LIMITS.lengthLeewaySeconds;

  let head: Uint8Array;
  try {
    head = await readHead(sourcePath);
  } catch (error) {
    throw new MediaProcessingFailed(VIDEO_MESSAGES.unreadable, { detail: 'source file unreadable', cause: error });
  }
  const container = sniffVideo(head);
  if (!container) throw new MediaProcessingFailed(VIDEO_MESSAGES.notAVideo, { detail: 'not an ISO media or Matroska file' });

  const input = await probeVideo(sourcePath, { container, deadline, ...(signal ? { signal } : {}) });
  const video = input.streams.find((stream) => stream.codecType === 'video' && stream.codecName !== 'mjpeg' && stream.codecName !== 'png');
  if (!video) throw new MediaProcessingFailed(VIDEO_MESSAGES.notAVideo, { detail: `no video stream in ${input.formatName}` });
  const audio = input.streams.find((stream) => stream.codecType === 'audio');
  if (!video.width || !video.height) throw new MediaProcessingFailed(VIDEO_MESSAGES.unreadable, { detail: 'video stream without a size' });
  if (input.durationSeconds !== null && input.durationSeconds > allowedSeconds) {
    throw new MediaProcessingFailed(VIDEO_MESSAGES.tooLong(maxSeconds), { detail: `${input.durationSeconds} s` });
  }

  // The size as shown: a phone's portrait video is stored landscape with a quarter turn to apply.
  const turned = quarterTurn(video.rotation);
  const shownWidth = turned ? video.height : video.width;
  const shownHeight = turned ? video.width : video.height;
  const target = outputSize(shownWidth, shownHeight);
  const copyVideo =
    video.codecName === 'h264' &&
    video.pixFmt === 'yuv420p' &&
    Math.max(shownWidth, shownHeight) <= VIDEO_LIMITS.outputSide &&
    Math.min(shownWidth, shownHeight) <= VIDEO_LIMITS.outputShortSide;
  const copyAudio = audio?.codecName === 'aac';

  const videoPath = path.join(workDir, 'video.mp4');
  const args = [
    '-nostdin',
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-protocol_whitelist',
    'file',
    '-f',
    container,
    '-i',
    `file:${sourcePath}`,
    // The first picture and the first sound only: no data tracks (GPS telemetry), subtitles or chapters.
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-map_metadata',
    '-1',
    '-map_metadata:s:v',
    '-1',
    '-map_metadata:s:a',
    '-1',
    '-map_chapters',
    '-1',
    // Longer than allowed is cut just past the limit (and then refused): a video without a stated length cannot run on.
    '-t',
    String(allowedSeconds + 0.5),
    ...(copyVideo
      ? ['-c:v', 'copy']
      : [
          '-vf',
          `scale=${target.width}:${target.height}:flags=bicubic,setsar=1`,
          '-c:v',
          'libx264',
          '-preset',
          VIDEO_PRESET,
          '-crf',
          String(VIDEO_CRF),
          '-pix_fmt',
          'yuv420p',
          '-profile:v',
          'high',
          '-threads',
          String(VIDEO_THREADS),
        ]),
    ...(audio ? (copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', AUDIO_BITRATE]) : []),
    '-max_muxing_queue_size',
    '1024',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    `file:${videoPath}`,
  ];
  const encoded = await run('ffmpeg', args, deadline, signal);
  if (encoded.code !== 0) throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed, { detail: encoded.stderr });

  // The proof: what was written is read back; a location tag left anywhere fails the video.
  const output = await probeVideo(videoPath, { container: 'mov', deadline, ...(signal ? { signal } : {}) });
  const leftover = locationTags(output);
  if (leftover.length > 0)
    throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed, { detail: `location left after processing: ${leftover.join(', ')}` });
  const outVideo = output.streams.find((stream) => stream.codecType === 'video');
  const outAudio = output.streams.filter((stream) => stream.codecType === 'audio');
  if (
    !outVideo?.width ||
    !outVideo.height ||
    outVideo.codecName !== 'h264' ||
    outVideo.pixFmt !== 'yuv420p' ||
    output.streams.length !== 1 + outAudio.length ||
    outAudio.some((stream) => stream.codecName !== 'aac')
  ) {
    throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed, {
      detail: `unexpected output: ${JSON.stringify(output.streams.map((s) => s.codecName))}`,
    });
  }
  const outTurned = quarterTurn(outVideo.rotation);
  const width = outTurned ? outVideo.height : outVideo.width;
  const height = outTurned ? outVideo.width : outVideo.height;
  if (Math.max(width, height) > VIDEO_LIMITS.outputSide || Math.min(width, height) > VIDEO_LIMITS.outputShortSide) {
    throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed, { detail: `output is ${width}×${height}` });
  }
  const durationSeconds = output.durationSeconds ?? 0;
  if (durationSeconds > allowedSeconds)
    throw new MediaProcessingFailed(VIDEO_MESSAGES.tooLong(maxSeconds), { detail: `${durationSeconds} s after processing` });

  const poster = await makePoster(videoPath, workDir, durationSeconds, deadline, signal);
  const { size } = await fs.stat(videoPath);
  return {
    videoPath,
    posterPath: poster.path,
    width,
    height,
    durationMs: Math.round(durationSeconds * 1000),
    bytes: size,
    posterWidth: poster.width,
    posterHeight: poster.height,
    videoCopied: copyVideo,
  };
}

/** A frame at `POSTER_AT_SECONDS` (the first of a shorter video) as PNG by ffmpeg, then WebP by sharp (no metadata). */
async function makePoster(
  videoPath: string,
  workDir: string,
  durationSeconds: number,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<{ path: string; width: number; height: number }> {
  const png = path.join(workDir, 'poster.png');
  const grab = async (at: number) => {
    await fs.rm(png, { force: true });
    const args = ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-protocol_whitelist', 'file', '-f', 'mov'];
    if (at > 0) args.push('-ss', String(at));
    args.push('-i', `file:${videoPath}`, '-map', '0:v:0', '-frames:v', '1', '-map_metadata', '-1', '-f', 'image2', '-c:v', 'png', `file:${png}`);
    const result = await run('ffmpeg', args, deadline, signal);
    const made = await fs.stat(png).then(
      (info) => info.size > 0,
      () => false,
    );
    return { ok: result.code === 0 && made, stderr: result.stderr };
  };
  let grabbed = await grab(durationSeconds > POSTER_AT_SECONDS + 0.1 ? POSTER_AT_SECONDS : 0);
  if (!grabbed.ok) grabbed = await grab(0);
  if (!grabbed.ok) throw new MediaProcessingFailed(VIDEO_MESSAGES.processingFailed, { detail: `no poster frame: ${grabbed.stderr}` });
  const posterPath = path.join(workDir, 'poster.webp');
  const info = await sharp(png, { failOn: 'error' })
    .resize({ width: POSTER_SIDE, height: POSTER_SIDE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: POSTER_WEBP_QUALITY })
    .toFile(posterPath);
  await fs.rm(png, { force: true });
  return { path: posterPath, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------------------------
// Storing

/** The storage keys of a video: the MP4 in `display_key`, the poster in `thumbnail_key`. */
export function videoKeys(id: string): { video: string; poster: string } {
  return { video: `${id}/video.mp4`, poster: `${id}/poster.webp` };
}

/**
 * Stores the MP4 and the poster (streamed from disk) and makes the row a ready video. False
 * (and the files removed again) when the row is gone meanwhile (the upload was removed).
 */
export async function storeProcessedVideo(db: Db, storage: Storage, mediaId: string, processed: ProcessedVideo): Promise<boolean> {
  const keys = videoKeys(mediaId);
  const removeFiles = () => Promise.allSettled([storage.delete(keys.video), storage.delete(keys.poster)]);
  try {
    await storage.putFile(keys.video, processed.videoPath, 'video/mp4');
    await storage.putFile(keys.poster, processed.posterPath, 'image/webp');
    const updated = await db
      .update(media)
      .set({
        kind: 'video',
        status: 'ready',
        failureReason: null,
        expiresAt: null,
        contentType: 'video/mp4',
        width: processed.width,
        height: processed.height,
        bytes: processed.bytes,
        durationMs: processed.durationMs,
        displayKey: keys.video,
        thumbnailKey: keys.poster,
        thumbnailWidth: processed.posterWidth,
        thumbnailHeight: processed.posterHeight,
      })
      .where(eq(media.id, mediaId))
      .returning({ id: media.id });
    if (updated.length === 0) {
      await removeFiles();
      return false;
    }
    return true;
  } catch (error) {
    await removeFiles();
    throw error;
  }
}

export interface VideoProcessorDeps {
  db: Db;
  storage: Storage;
  logger: Logger;
  /** Where each video's work folder is made (default: the system's temporary folder). */
  workRoot?: string;
}

export interface VideoJobInput {
  mediaId: string;
  /** The complete upload on local disk (the caller keeps and removes it). */
  sourcePath: string;
  /** The question's maximum length (s); `FORM_LIMITS.videoMaxSeconds` when not given. */
  maxSeconds?: number;
  signal?: AbortSignal;
}

/**
 * What the `media.process` job calls for a video: processes it (queued, one at a time), stores
 * it and marks the row ready; throws `MediaProcessingFailed` (the row is then the caller's to mark
 * failed with `reason`). The work folder is always removed; the source file is left alone.
 */
export function videoProcessor(deps: VideoProcessorDeps): (input: VideoJobInput) => Promise<void> {
  return async (input) => {
    const workDir = await fs.mkdtemp(path.join(deps.workRoot ?? os.tmpdir(), 'fw-video-'));
    const started = performance.now();
    try {
      const processed = await processVideo({
        sourcePath: input.sourcePath,
        workDir,
        ...(input.maxSeconds === undefined ? {} : { maxSeconds: input.maxSeconds }),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const stored = await storeProcessedVideo(deps.db, deps.storage, input.mediaId, processed);
      deps.logger.info(
        {
          mediaId: input.mediaId,
          stored,
          width: processed.width,
          height: processed.height,
          durationMs: processed.durationMs,
          bytes: processed.bytes,
          videoCopied: processed.videoCopied,
          ms: Math.round(performance.now() - started),
        },
        stored ? 'video processed' : 'video processed for an upload that is gone: not kept',
      );
    } catch (error) {
      if (error instanceof MediaProcessingFailed) {
        deps.logger.warn({ mediaId: input.mediaId, reason: error.reason, detail: error.detail }, 'video processing failed');
      }
      throw error;
    } finally {
      await fs.rm(workDir, { recursive: true, force: true });
    }
  };
}
