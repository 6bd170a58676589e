import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { Hono, type Context } from 'hono';
import { NDJSON_TYPE, POINTS_BULK_LIMITS, type BulkProgressLine } from '../../shared/points-bulk-update.ts';
import { bulkApplySchema, bulkBatchListQuerySchema, bulkColumnMapSchema, type BulkColumnMapInput } from '../../shared/schemas/points-bulk-update.ts';
import type { AppEnv } from '../context.ts';
import { ApiError, errorBody } from '../errors.ts';
import { adminOnly, check, clientIp, jsonBody, notFound, pathId, perRequest, query, recentAuth, signedInUser, validationError } from '../http.ts';
import { openTable } from '../services/points-bulk-file.ts';
import { applyBatch, findBatch, listBatches, previewBatch, problemsCsv, rowsCsv, type BulkProgress } from '../services/points-bulk-update.ts';

const MB = POINTS_BULK_LIMITS.maxBytes / (1024 * 1024);
const fileRequired = () => new ApiError(400, 'file_required', 'Choose a CSV or XLSX file (multipart field "file")');

/**
 * The multipart body, streamed through busboy: the `file` part (at most `maxBytes`, else 413
 * and the rest is not read) and the optional `columns` field (JSON column map).
 */
async function readUpload(c: Context<AppEnv>): Promise<{ fileName: string; bytes: Buffer; columns: BulkColumnMapInput | null }> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const body = c.req.raw.body;
  if (type !== 'multipart/form-data' || !body) throw fileRequired();
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > POINTS_BULK_LIMITS.maxBytes + 64 * 1024) throw new ApiError(413, 'file_too_large', `The file is too large (at most ${MB} MB)`);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      limits: { files: 1, fields: 5, fileSize: POINTS_BULK_LIMITS.maxBytes, fieldSize: 64 * 1024 },
    });
  } catch {
    throw new ApiError(400, 'invalid_upload', 'The upload could not be read');
  }
  const source = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
  return new Promise((resolve, reject) => {
    let file: { fileName: string; chunks: Buffer[] } | null = null;
    let columnsText: string | null = null;
    let failure: ApiError | null = null;
    // Past the limit: answered at once; the rest of the body is read and dropped (never held).
    const fail = (error: ApiError) => {
      failure ??= error;
      source.unpipe(parser);
      source.resume();
      reject(failure);
    };
    parser.on('file', (name, stream, info) => {
      // A body cut short errors the part being read as well as the parser: the parser's error answers it.
      stream.on('error', () => fail(new ApiError(400, 'invalid_upload', 'The upload could not be read')));
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      const current = { fileName: (info.filename || 'points.csv').slice(0, 255), chunks: [] as Buffer[] };
      file = current;
      stream.on('data', (chunk: Buffer) => current.chunks.push(chunk));
      stream.on('limit', () => fail(new ApiError(413, 'file_too_large', `The file is too large (at most ${MB} MB)`)));
    });
    parser.on('field', (name, value) => {
      if (name === 'columns') columnsText = value;
    });
    parser.on('error', () => fail(new ApiError(400, 'invalid_upload', 'The upload could not be read')));
    parser.on('close', () => {
      if (failure) return;
      if (!file) return reject(fileRequired());
      let columns: BulkColumnMapInput | null = null;
      if (columnsText !== null && columnsText.trim() !== '') {
        let raw: unknown;
        try {
          raw = JSON.parse(columnsText);
        } catch {
          return reject(new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { columns: ['Not valid JSON'] } }));
        }
        const parsed = bulkColumnMapSchema.safeParse(raw);
        if (!parsed.success) return reject(validationError(parsed.error));
        columns = parsed.data;
      }
      resolve({ fileName: file.fileName, bytes: Buffer.concat(file.chunks), columns });
    });
    source.on('error', () => fail(new ApiError(400, 'invalid_upload', 'The upload was interrupted')));
    source.pipe(parser);
  });
}

const wantsProgress = (c: Context<AppEnv>) => (c.req.header('accept') ?? '').includes(NDJSON_TYPE);

/**
 * Runs `work` and answers its result: as JSON (the contract), or, when the request accepts
 * `application/x-ndjson`, as a stream of progress lines (at most one every 100 ms per phase,
 * the last of each phase always) ending with `{ "result": … }` or `{ "error": …, "status": … }`.
 */
async function answer<T>(c: Context<AppEnv>, work: (progress: BulkProgress) => Promise<T>) {
  if (!wantsProgress(c)) return c.json(await work(() => {}), 200);
  const encoder = new TextEncoder();
  // A caller that went away does not stop the work (an apply still commits): its lines are dropped.
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: BulkProgressLine) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        } catch {
          open = false;
        }
      };
      let last = 0;
      let lastPhase = '';
      const progress: BulkProgress = (phase, done, total) => {
        const now = Date.now();
        if (phase === lastPhase && done < total && now - last < 100) return;
        last = now;
        lastPhase = phase;
        send({ phase, done, total });
      };
      try {
        send({ result: await work(progress) });
      } catch (error) {
        if (error instanceof ApiError) {
          // A file that cannot be read: the library's words are the cause, for the log only (as app.ts logs the plain answer's).
          if (error.cause !== undefined) c.get('logger').warn({ err: error.cause, code: error.code, path: c.req.path }, error.message);
          send({ ...errorBody(error.code, error.message, error.fields, error.details), status: error.status });
        } else {
          c.get('logger').error({ err: error, path: c.req.path }, 'unhandled error');
          send({ ...errorBody('internal_error', 'Internal Server Error'), status: 500 });
        }
      }
      if (open) controller.close();
    },
    cancel() {
      open = false;
    },
  });
  return c.body(stream, 200, { 'Content-Type': `${NDJSON_TYPE}; charset=utf-8`, 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
}

const batchOf = perRequest(async (c) => {
  const batch = await findBatch(c.get('db'), pathId(c, 'batchId', 'batch'));
  if (!batch) throw notFound('batch');
  return batch;
});

const attachment = (name: string) => ({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` });

/** Points bulk update (/admin/tools/points-bulk-update): admins only. Mounted at `/`: each call names its whole path. */
export const pointsBulkUpdateRoutes = new Hono<AppEnv>()
  /** A file (multipart `file`, optional `columns`): read, checked and stored as a batch; nothing is credited. */
  .post('/admin/tools/points-bulk-update/preview', adminOnly, async (c) => {
    const actor = signedInUser(c.get('user'));
    const upload = await readUpload(c);
    // The header is read before answering, so a file that cannot be opened or mapped is a plain 4xx.
    let readSoFar = 0;
    let reading: ((done: number) => void) | null = null;
    const table = await openTable(upload.bytes, (done) => {
      readSoFar = done;
      reading?.(done);
    });
    const { db, deps } = c.var;
    return answer(c, (progress) => {
      reading = (done) => progress('reading', done, upload.bytes.length);
      reading(readSoFar);
      return previewBatch(db, deps.clock, { table, fileName: upload.fileName, columns: upload.columns, actorId: actor.id }, progress);
    });
  })

  /**
   * The batch's clean rows to the ledger, all or nothing; a batch applied before changes nothing.
   * `allowNegative` applies rows taking points below zero too (409 `insufficient_points` otherwise). Needs a recent sign-in.
   */
  .post('/admin/tools/points-bulk-update/:batchId/apply', adminOnly, recentAuth, check(batchOf), jsonBody(bulkApplySchema), async (c) => {
    const actor = signedInUser(c.get('user'));
    const batch = await batchOf(c);
    const { excludeProblemRows, allowNegative } = c.req.valid('json');
    const { db, deps } = c.var;
    const ip = clientIp(c);
    return answer(c, (progress) => applyBatch(db, deps.clock, { batchId: batch.id, excludeProblemRows, allowNegative, actorId: actor.id, ip }, progress));
  })

  .get('/admin/tools/points-bulk-update/batches', adminOnly, query(bulkBatchListQuerySchema), async (c) => {
    return c.json(await listBatches(c.get('db'), c.req.valid('query')), 200);
  })

  .get('/admin/tools/points-bulk-update/:batchId/problems.csv', adminOnly, check(batchOf), async (c) => {
    const batch = await batchOf(c);
    return c.body(await problemsCsv(c.get('db'), batch.id), 200, attachment(`points-batch-${batch.id}-problems.csv`));
  })

  .get('/admin/tools/points-bulk-update/:batchId/rows.csv', adminOnly, check(batchOf), async (c) => {
    const batch = await batchOf(c);
    return c.body(rowsCsv(c.get('db'), batch), 200, attachment(`points-batch-${batch.id}-results.csv`));
  });
