/**
 * Video processing time (issue 33 §4): a generated 1-minute 1080p clip through `processVideo`
 * (services/video.ts: ffprobe, ffmpeg at `nice -n 19`, the proof probe, the WebP poster), twice —
 * H.264 + AAC in MP4, which is copied as it is (the usual Android and "Most Compatible" iPhone
 * file), and HEVC + AAC in MOV (an iPhone's default), which is encoded again (libx264
 * `veryfast`). The clips are `testsrc2` with moving grain, so the encoder has real work (a plain
 * test pattern compresses far more easily than a camera's picture).
 *
 * Part of `npm run bench` (after the server cases; `BENCH_VIDEO=0` skips it); on its own:
 * `node_modules/.bin/node scripts/bench-video.ts` (`BENCH_WRITE=1` rewrites its section of
 * docs/benchmarks.md).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processVideo } from '../src/server/services/video.ts';
import { runIfMain, writeBenchmarksSection } from './bench-server.ts';

const SECONDS = 60;

export interface VideoBenchRow {
  case: string;
  input: string;
  inputBytes: number;
  ms: number;
  outputBytes: number;
  output: string;
  copied: boolean;
}

interface Clip {
  name: string;
  file: string;
  describe: string;
  args: string[];
}

const CLIPS: readonly Clip[] = [
  {
    name: 'H.264 + AAC (copied)',
    file: 'h264.mp4',
    describe: '1920×1080 30 fps H.264 (yuv420p) + AAC, MP4',
    // A phone's bit rate (about 16 Mb/s at 1080p30), not what the grain would take: a clip of about 120 MB.
    args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '16M', '-maxrate', '16M', '-bufsize', '32M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4'],
  },
  {
    name: 'HEVC + AAC (encoded again)',
    file: 'hevc.mov',
    // An iPhone's bit rate for HEVC 1080p30 (about 10 Mb/s).
    describe: '1920×1080 30 fps HEVC + AAC, MOV',
    args: [
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-b:v',
      '10M',
      '-maxrate',
      '10M',
      '-bufsize',
      '20M',
      '-pix_fmt',
      'yuv420p',
      '-x265-params',
      'log-level=error',
      '-tag:v',
      'hvc1',
      '-c:a',
      'aac',
      '-f',
      'mov',
    ],
  },
];

function generate(dir: string, clip: Clip): string {
  const file = path.join(dir, clip.file);
  const result = spawnSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=30,noise=alls=12:allf=t`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-t',
      String(SECONDS),
      ...clip.args,
      file,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`ffmpeg could not make ${clip.file}: ${result.stderr}`);
  return file;
}

/** Makes both clips, processes each once, and removes everything again. */
export async function benchVideo(): Promise<VideoBenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-video-'));
  const rows: VideoBenchRow[] = [];
  try {
    for (const clip of CLIPS) {
      console.log(`  video: making ${clip.describe}, ${SECONDS} s…`);
      const source = generate(dir, clip);
      const workDir = fs.mkdtempSync(path.join(dir, 'work-'));
      const started = performance.now();
      const processed = await processVideo({ sourcePath: source, workDir, maxSeconds: SECONDS });
      const ms = performance.now() - started;
      const row: VideoBenchRow = {
        case: clip.name,
        input: clip.describe,
        inputBytes: fs.statSync(source).size,
        ms,
        outputBytes: processed.bytes,
        output: `${processed.width}×${processed.height}, ${(processed.durationMs / 1000).toFixed(1)} s`,
        copied: processed.videoCopied,
      };
      console.log(`  video: ${row.case}: ${(ms / 1000).toFixed(1)} s (${(SECONDS / (ms / 1000)).toFixed(1)}× real time)`);
      rows.push(row);
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(source, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The Markdown table of docs/benchmarks.md. */
export function videoBenchTable(rows: readonly VideoBenchRow[]): string {
  return [
    `Taken ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (ffmpeg at \`nice -n 19\`, ${os.cpus()[0]?.model ?? 'unknown CPU'}).`,
    '',
    '| case | input | processing | real time | output | |',
    '| --- | --- | ---: | ---: | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.case} | ${row.input}, ${mb(row.inputBytes)} | ${(row.ms / 1000).toFixed(1)} s | ${(SECONDS / (row.ms / 1000)).toFixed(1)}× | ${row.output}, ${mb(row.outputBytes)} | ${row.copied ? 'picture copied' : 'picture encoded (libx264 veryfast)'} |`,
    ),
  ].join('\n');
}

runIfMain(import.meta.url, async () => {
  const rows = await benchVideo();
  const table = videoBenchTable(rows);
  console.log(`\n${table}`);
  if (process.env.BENCH_WRITE === '1') writeBenchmarksSection('bench-video', table);
});
