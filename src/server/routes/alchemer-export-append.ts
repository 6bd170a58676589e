import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { APPEND_COUNT_HEADERS, APPEND_FORM_FIELDS, type AppendCountName } from '../../shared/alchemer-export-append.ts';
import { appendOptionsSchema } from '../../shared/schemas/alchemer-export-append.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, clientIp, recentAuth, signedInUser, validationError } from '../http.ts';
import { appendExport, previewExport, receiveExport, type ReceivedExport } from '../services/alchemer-export-append.ts';

/** The options of an append from its multipart fields (`fields[]` repeated; `fields` accepted too). */
function optionsOf(file: ReceivedExport) {
  const first = (name: string) => file.fields.get(name)?.[0];
  const parsed = appendOptionsSchema.safeParse({
    idColumn: first(APPEND_FORM_FIELDS.idColumn),
    fields: [...(file.fields.get(APPEND_FORM_FIELDS.fields) ?? []), ...(file.fields.get('fields') ?? [])],
    confirmCompletes: first(APPEND_FORM_FIELDS.confirmCompletes),
  });
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** `Content-Disposition: attachment` with the name in plain ASCII and in UTF-8 (RFC 6266). */
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Alchemer export append (/admin/tools/alchemer-export-append, decision 016): admins only.
 * Mounted at `/`: each call names its whole path. Both calls take the file as multipart and check
 * its size themselves (app.ts exempts them from the JSON body limit); the upload's temporary
 * folder is removed in every case — on a refusal at once, after an append once the answer has
 * been sent or abandoned.
 */
export const alchemerExportAppendRoutes = new Hono<AppEnv>()
  .post('/admin/tools/alchemer-export-append/preview', adminOnly, async (c) => {
    const file = await receiveExport(c.req.raw.headers, c.req.raw.body);
    try {
      return c.json(await previewExport(c.get('db'), file), 200);
    } finally {
      await file.dispose();
    }
  })
  // Profile data out (and completes confirmed): a recent sign-in, asked before the file is read.
  .post('/admin/tools/alchemer-export-append', adminOnly, recentAuth, async (c) => {
    const admin = signedInUser(c.get('user'));
    const file = await receiveExport(c.req.raw.headers, c.req.raw.body);
    let handedOver = false;
    try {
      const options = optionsOf(file);
      // With "Confirm completes" the service writes the audit row however the run ends.
      const result = await appendExport(c.get('db'), c.get('deps').clock, file, options, { id: admin.id, ip: clientIp(c) });
      const body = fs.createReadStream(result.outPath, { highWaterMark: 256 * 1024 });
      // Removed once the file is sent, or the download abandoned (the stream closes either way).
      body.on('close', () => void file.dispose());
      handedOver = true;
      const headers: Record<string, string> = {
        'Content-Type': result.contentType,
        'Content-Length': String(result.bytes),
        'Content-Disposition': attachment(result.fileName),
        'Cache-Control': 'no-store',
        'Access-Control-Expose-Headers': [...Object.values(APPEND_COUNT_HEADERS), 'Content-Disposition'].join(', '),
      };
      for (const [name, header] of Object.entries(APPEND_COUNT_HEADERS)) headers[header] = String(result.counts[name as AppendCountName]);
      // At most two chunks (512 KB) queued ahead of the client: toWeb's default counts chunks against the byte
      // high-water mark (256 Ki chunks), which would let a slow download pull the whole file into memory.
      const web = Readable.toWeb(body, { strategy: new CountQueuingStrategy({ highWaterMark: 2 }) }) as ReadableStream<Uint8Array>;
      return new Response(web, { status: 200, headers });
    } finally {
      if (!handedOver) await file.dispose();
    }
  });
