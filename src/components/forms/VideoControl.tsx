/**
 * The video element: "Record with the camera" (the camera app: `capture`), "Choose from the
 * library" and "Record here" (in the page: MediaRecorder, MP4 where the browser records it, else
 * WebM, with a visible timer that stops at the question's limit, holding the recording lock so a
 * new service worker waits). Each video's length is read in the browser before it is kept: one
 * longer than the limit is refused at once and nothing is queued. The rows, pickers and messages
 * are the media control's (`MediaControl.tsx`).
 */
import { useEffect, useRef, useState } from 'react';
import type { ElementOf } from '../../shared/forms/definition.ts';
import { RECORDING_LOCK } from '../../shared/offline.ts';
import { VIDEO_ACCEPT, VIDEO_LIMITS } from '../../shared/media.ts';
import { Button } from '../ui/button.tsx';
import { keptCount, MediaControl, MediaPickers, VideoIcon } from './MediaControl.tsx';
import type { ControlProps } from './types.ts';
import { formatCount, m } from '../../shared/i18n.ts';

/** `m:ss`. */
export function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The recorder's type: MP4 where the browser records it, else WebM. */
export function recordingType(isTypeSupported: (type: string) => boolean): string {
  if (isTypeSupported('video/mp4')) return 'video/mp4';
  if (isTypeSupported('video/webm')) return 'video/webm';
  return '';
}

/** A video file's length in ms, read from its metadata by a <video> element; null when it cannot be read. */
export function readDurationMs(file: Blob): Promise<number | null> {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return Promise.resolve(null);
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    let settled = false;
    const done = (ms: number | null) => {
      if (settled) return;
      settled = true;
      URL.revokeObjectURL(url);
      video.removeAttribute('src');
      resolve(ms);
    };
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      // A recorded WebM says Infinity until it is read to the end: seeking far makes the browser find its length.
      if (video.duration === Infinity) {
        video.ontimeupdate = () => {
          video.ontimeupdate = null;
          done(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : null);
        };
        video.currentTime = 1e9;
        return;
      }
      done(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : null);
    };
    video.onerror = () => done(null);
    // A browser that never says (no decoder for the container): the server checks the length instead.
    setTimeout(() => done(null), 10_000);
    video.src = url;
  });
}

/** How lengths are read (tests replace it: jsdom plays no media). */
export const videoProbe = { durationMs: readDurationMs };

/** Within the limit (with the containers' rounding leeway). */
export const withinLimit = (durationMs: number, maxSeconds: number): boolean => durationMs <= (maxSeconds + VIDEO_LIMITS.lengthLeewaySeconds) * 1000;

/** The in-page recorder: a live preview, the mm:ss timer, Stop; stops by itself at `maxSeconds`. */
function Recorder({
  maxSeconds,
  onDone,
  onCancel,
}: {
  maxSeconds: number;
  onDone(file: File, durationMs: number): void;
  onCancel(message: string | null): void;
}) {
  const preview = useRef<HTMLVideoElement>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const stopButton = useRef<HTMLButtonElement>(null);
  const latest = useRef({ onDone, onCancel });
  latest.current = { onDone, onCancel };

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let releaseLock: (() => void) | null = null;
    let cancelled = false;
    const chunks: Blob[] = [];
    const stopAll = () => {
      if (timer) clearInterval(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      releaseLock?.();
    };
    const begin = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: true });
      } catch {
        if (!cancelled) latest.current.onCancel(m.outbox_video_camera_failed());
        return;
      }
      if (cancelled) {
        stopAll();
        return;
      }
      // Held while recording: a new service worker waits rather than reload the page under the camera.
      navigator.locks?.request(RECORDING_LOCK, () => new Promise<void>((resolve) => (releaseLock = resolve))).catch(() => undefined);
      if (preview.current) {
        preview.current.srcObject = stream;
        void preview.current.play().catch(() => undefined);
      }
      const type = recordingType((candidate) => MediaRecorder.isTypeSupported(candidate));
      const media = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
      recorder.current = media;
      const started = Date.now();
      media.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      media.onstop = () => {
        const durationMs = Date.now() - started;
        stopAll();
        if (cancelled) return;
        const mime = media.mimeType || type || 'video/webm';
        const extension = mime.includes('mp4') ? 'mp4' : 'webm';
        const file = new File(chunks, `recording-${new Date(started).toISOString().replace(/[:.]/g, '-')}.${extension}`, { type: mime.split(';')[0] });
        latest.current.onDone(file, Math.min(durationMs, maxSeconds * 1000));
      };
      media.start(1000);
      stopButton.current?.focus();
      timer = setInterval(() => {
        const seconds = (Date.now() - started) / 1000;
        setElapsed(seconds);
        if (seconds >= maxSeconds && media.state === 'recording') media.stop();
      }, 250);
    };
    void begin();
    return () => {
      cancelled = true;
      if (recorder.current?.state === 'recording') recorder.current.stop();
      stopAll();
    };
  }, [maxSeconds]);

  return (
    <div className="flex flex-col gap-2 rounded-md border border-border p-2">
      <video ref={preview} muted playsInline aria-label={m.outbox_video_preview()} className="max-h-64 w-full rounded bg-black" />
      <p role="timer" aria-live="off" className="font-medium tabular-nums">
        {m.outbox_video_timer({ time: clock(elapsed), max: clock(maxSeconds) })}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button ref={stopButton} type="button" className="h-11" onClick={() => recorder.current?.state === 'recording' && recorder.current.stop()}>
          {m.outbox_video_stop()}
        </Button>
        <Button type="button" variant="ghost" className="h-11" onClick={() => latest.current.onCancel(null)}>
          {m.outbox_video_cancel()}
        </Button>
      </div>
    </div>
  );
}

const canRecordHere = (): boolean =>
  typeof window !== 'undefined' && typeof window.MediaRecorder === 'function' && typeof navigator.mediaDevices?.getUserMedia === 'function';

export function VideoControl(props: ControlProps<ElementOf<'video'>>) {
  const { element, ids, ctx, describedBy } = props;
  const uploads = ctx.photos;
  const capture = element.capture ?? 'both';
  const [recording, setRecording] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [recordable, setRecordable] = useState(false);
  useEffect(() => setRecordable(canRecordHere()), []);
  const full = keptCount(uploads.items(element.id)) >= element.maxFiles;

  /** Reads each video's length first: one too long (or unreadable) is refused, and nothing of it is kept. */
  const pick = async (files: File[]) => {
    setProblem(null);
    const durations = await Promise.all(
      files.map((file) => (file.type.startsWith('video/') || file.type === '' ? videoProbe.durationMs(file) : Promise.resolve(null))),
    );
    const accepted: File[] = [];
    const lengths: (number | null)[] = [];
    for (const [index, file] of files.entries()) {
      const ms = durations[index] ?? null;
      if (file.size > VIDEO_LIMITS.maxBytes) {
        setProblem(m.outbox_reason_too_large());
        continue;
      }
      if (ms !== null && !withinLimit(ms, element.maxSeconds)) {
        setProblem(m.outbox_video_too_long({ max: clock(element.maxSeconds) }));
        continue;
      }
      accepted.push(file);
      lengths.push(ms);
    }
    if (accepted.length > 0) uploads.add(element, accepted, lengths);
  };

  return (
    <MediaControl
      element={element}
      ctx={ctx}
      nameOf={(number) => m.outbox_video_name({ number })}
      Icon={VideoIcon}
      countText={(kept) => m.outbox_video_count({ kept, max: formatCount(element.maxFiles) })}
      problem={problem}
    >
      {recording ? (
        <Recorder
          maxSeconds={element.maxSeconds}
          onDone={(file, durationMs) => {
            setRecording(false);
            uploads.add(element, [file], [durationMs]);
          }}
          onCancel={(message) => {
            setRecording(false);
            setProblem(message);
          }}
        />
      ) : (
        <MediaPickers
          ids={ids}
          capture={capture}
          cameraLabel={m.outbox_video_record_camera()}
          libraryLabel={m.outbox_video_choose()}
          cameraIcon={<VideoIcon />}
          accept={VIDEO_ACCEPT}
          disabled={ctx.disabled || full}
          describedBy={describedBy}
          onPick={(files) => void pick(files)}
        >
          {capture !== 'library' && recordable && (
            <Button type="button" variant="outline" className="h-11" disabled={ctx.disabled || full} onClick={() => setRecording(true)}>
              {m.outbox_video_record_here()}
            </Button>
          )}
        </MediaPickers>
      )}
    </MediaControl>
  );
}
