import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { InvalidInputError, PayloadTooLargeError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import {
  CreateFileSignedUrlSchema,
  FileParamsSchema,
  SignedFileQuerySchema,
  UploadParamsSchema,
} from '../schemas/files';
import { parseByteRange } from '../services/files/byte-range';
import { FileTooLargeError } from '../services/files/file-inspector';
import type { FileRow, FileService } from '../services/files/file-service';
import { fileHeaders } from '../services/files/served-type';
import type { IntegrationBudget } from '../services/integrations/integration-budget';
import type { CallerGuard } from './caller-guard';
import { ownOriginOf } from './request-origin';

/** FilesDeps is what the file routes need. */
export interface FilesDeps {
  guard: CallerGuard;
  budget: IntegrationBudget;
  files: FileService;
  publicUrl: string | undefined;
}

const MULTIPART = /^multipart\/form-data\b/i;
const NOT_MULTIPART = 'Upload the file as multipart/form-data in the part "file" (as the SDK does)';
/** MULTIPART_OVERHEAD is what framing and small fields may add to the file's own bytes. */
const MULTIPART_OVERHEAD = 64 * 1024;
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

function tooLarge(maxBytes: number, setting = 'FILE_MAX_MB'): PayloadTooLargeError {
  const megabytes = Math.round((maxBytes / 1024 / 1024) * 100) / 100;
  return new PayloadTooLargeError(`A file may be at most ${megabytes} MB (${setting})`);
}

// The multipart parser (busboy) reports a body cut short or badly framed with these plain errors.
const BROKEN_FRAMING = /unexpected end of multipart data|Boundary not found|Malformed part header/i;

/** isBrokenFraming says the error is the caller's malformed multipart body (a 400), not ours. */
function isBrokenFraming(error: unknown): boolean {
  return error instanceof Error && !('code' in error) && BROKEN_FRAMING.test(error.message);
}

/**
 * failWhenCutShort fails file when the body ends inside it. The parser reports a missing closing boundary
 * on the file stream before the route can listen, and then ends the parts without ending the file: the
 * upload would wait for the rest of the file for ever. So the parts are watched to their end (which comes
 * only after the file's own end when the body is whole), and a file still open then is failed (400).
 */
function failWhenCutShort(parts: AsyncIterator<unknown>, file: Readable, body: IncomingMessage): void {
  const fail = (error: Error) => {
    if (!file.destroyed) file.destroy(error);
  };
  // A connection closed (by the client, or by the body deadline's 408) before the body's end fails the
  // file too: the parser only tears the file down when the client aborts, and storage would wait for ever.
  const closed = () => {
    if (!body.complete) fail(new InvalidInputError('The upload was cut off before its end'));
  };
  body.socket.once('close', closed);
  void finished(file)
    .catch(() => undefined)
    .then(() => body.socket.off('close', closed));
  parts.next().then(
    () => {
      // `ended`: the parser pushed the file's last byte (the consumer may still be reading it).
      const state = (file as Readable & { _readableState?: { ended?: boolean } })._readableState;
      if (!file.readableEnded && state?.ended !== true) {
        fail(
          new InvalidInputError('The upload is not valid multipart/form-data: its body ends inside the file'),
        );
      }
    },
    (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
  );
}

/** readFilePart finds the part named `file` and hands its stream to upload, reading nothing else big. */
async function uploadFrom(request: FastifyRequest, deps: FilesDeps, isPrivate: boolean): Promise<FileRow> {
  const { appId } = parseInput(UploadParamsSchema, request.params);
  await deps.budget.perIp(request.ip);
  const caller = await deps.guard.dataCaller(request, appId);
  await deps.budget.perCaller(appId, caller);
  const allowance = await deps.files.admitUpload(appId, caller, request.ip);
  const { maxBytes } = allowance;
  try {
    const limits = {
      fieldNameSize: 100,
      fieldSize: 64 * 1024,
      fields: 10,
      files: 1,
      parts: 20,
      headerPairs: 20,
    };
    // One byte past the limit, so the inspector (not the parser) sees the file is too large.
    const parts = request.parts({ limits: { ...limits, fileSize: maxBytes + 1 } });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        throw new InvalidInputError(
          `Unexpected file part "${part.fieldname.slice(0, 100)}": send the file in the part "file"`,
        );
      }
      const upload = deps.files.upload({
        appId,
        caller,
        private: isPrivate,
        filename: part.filename,
        declaredType: part.mimetype,
        body: part.file,
        allowance,
      });
      failWhenCutShort(parts, part.file, request.raw);
      return await upload;
    }
  } catch (error) {
    await deps.files.releaseUpload(appId, allowance);
    if (
      error instanceof FileTooLargeError ||
      (error as Partial<FastifyError>).code === 'FST_REQ_FILE_TOO_LARGE'
    ) {
      throw tooLarge(maxBytes, allowance.setting);
    }
    if (error instanceof PayloadTooLargeError || (error instanceof Error && 'statusCode' in error))
      throw error;
    if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new InvalidInputError(
        'The upload is not valid multipart/form-data: its body ends inside the file',
      );
    }
    if (!(error as Partial<FastifyError>).code?.startsWith('FST_') && !isBrokenFraming(error)) throw error;
    const reason = error instanceof Error ? error.message : 'unreadable body';
    throw new InvalidInputError(`The upload is not valid multipart/form-data: ${reason.slice(0, 200)}`);
  }
  await deps.files.releaseUpload(appId, allowance);
  throw new InvalidInputError('The upload has no file part named "file"');
}

/** registerUploads streams multipart uploads in their own scope (the rest of the app parses bodies). */
async function registerUploads(scope: FastifyInstance, deps: FilesDeps): Promise<void> {
  await scope.register(multipart);
  scope.addHook('preParsing', async (request) => {
    if (Number(request.headers['content-length'] ?? 0) > deps.files.maxBytes + MULTIPART_OVERHEAD) {
      throw tooLarge(deps.files.maxBytes);
    }
    if (!MULTIPART.test(request.headers['content-type'] ?? '')) throw new InvalidInputError(NOT_MULTIPART);
  });
  // A refusal sent before the whole body arrived closes the connection, so the rest is never read.
  scope.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
  scope.post('/api/apps/:appId/integration-endpoints/Core/UploadFile', async (request) => {
    const row = await uploadFrom(request, deps, false);
    const origin = ownOriginOf(request, deps.publicUrl) ?? '';
    return {
      file_url: `${origin}/api/apps/${row.app_id}/files/public/${row.key}/${encodeURIComponent(row.filename)}`,
    };
  });
  scope.post('/api/apps/:appId/integration-endpoints/Core/UploadPrivateFile', async (request) => {
    const row = await uploadFrom(request, deps, true);
    return { file_uri: deps.files.privateUri(row) };
  });
}

/** sendFile answers a GET for a stored file: safety headers, ETag (304), Range (206, 416). */
async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: FilesDeps,
  file: FileRow,
  cache: string,
) {
  const etag = `"${file.sha256.slice(0, 32)}"`;
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseByteRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${file.size}`)
      .send({ message: `The range lies outside the file's ${file.size} bytes` });
  }
  reply.headers(
    fileHeaders({ contentType: file.content_type, inline: file.inline, filename: file.filename }),
  );
  reply.headers({ etag, 'cache-control': cache, 'accept-ranges': 'bytes' });
  const ifNoneMatch = request.headers['if-none-match'];
  const tags = (ifNoneMatch ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (tags.includes('*') || tags.includes(etag)) return reply.code(304).send();
  if (range) {
    reply.code(206).headers({
      'content-range': `bytes ${range.start}-${range.end}/${file.size}`,
      'content-length': range.end - range.start + 1,
    });
    return reply.send(await deps.files.open(file, range));
  }
  reply.header('content-length', file.size);
  return reply.send(await deps.files.open(file));
}

/** registerFilesRoutes adds Core.UploadFile, UploadPrivateFile, CreateFileSignedUrl and serving stored files. */
export async function registerFilesRoutes(app: FastifyInstance, deps: FilesDeps): Promise<void> {
  await app.register((scope) => registerUploads(scope, deps));
  app.post('/api/apps/:appId/integration-endpoints/Core/CreateFileSignedUrl', async (request) => {
    const { appId } = parseInput(UploadParamsSchema, request.params);
    await deps.budget.perIp(request.ip);
    const caller = await deps.guard.dataCaller(request, appId);
    await deps.budget.perCaller(appId, caller);
    const body = parseInput(CreateFileSignedUrlSchema, request.body ?? {});
    const signed = await deps.files.signPrivate(appId, body.file_uri, body.expires_in);
    return { signed_url: `${ownOriginOf(request, deps.publicUrl) ?? ''}${signed.path}` };
  });
  app.get('/api/apps/:appId/files/public/:key/:name', async (request, reply) => {
    const { appId, key } = parseInput(FileParamsSchema, request.params);
    return sendFile(request, reply, deps, await deps.files.findReadable(appId, key), PUBLIC_CACHE);
  });
  app.get('/api/apps/:appId/files/private/:key/:name', async (request, reply) => {
    const { appId, key } = parseInput(FileParamsSchema, request.params);
    const query = parseInput(SignedFileQuerySchema, request.query);
    // An expired signature is a GoneError (410, the error map).
    const file = await deps.files.findReadable(appId, key, query);
    const left = Math.max(0, Number(query.expires) - Math.floor(Date.now() / 1000));
    return sendFile(request, reply, deps, file, `private, max-age=${Math.min(left, 86_400)}`);
  });
}
