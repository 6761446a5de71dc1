import multipart from '@fastify/multipart';
import { errorCodes, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { InvalidInputError, PayloadTooLargeError } from '../lib/errors';
import { IMPORT_FILE_LIMIT, type UploadedFile } from '../services/entities/entity-import';

const MULTIPART = /^multipart\/form-data\b/i;
const NOT_MULTIPART = 'An import must be multipart/form-data with the file in the part "file"';

/**
 * IMPORT_MULTIPART_LIMITS bound what busboy reads of an import body: one file of IMPORT_FILE_LIMIT, a few
 * small fields, and short part headers (a long header block is cut, never scanned again and again).
 */
export const IMPORT_MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 64 * 1024,
  fields: 10,
  files: 1,
  fileSize: IMPORT_FILE_LIMIT,
  parts: 20,
  headerPairs: 20,
  headerSize: 8 * 1024,
};

/**
 * registerImportUpload makes a scope stream multipart bodies instead of parsing them up front: the
 * handler checks the entity and the caller first, then calls readImportFile. Other body types are
 * refused before a byte is read, and so is a declared length over the limit. A reply sent before the
 * whole body arrived (a refusal, a limit) closes the connection, so the rest is never read.
 */
export async function registerImportUpload(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { limits: IMPORT_MULTIPART_LIMITS });
  scope.addHook('preParsing', async (request) => {
    if (Number(request.headers['content-length'] ?? 0) > IMPORT_FILE_LIMIT) {
      throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    }
    // Before any parser runs, so no other body type is read here.
    if (!MULTIPART.test(request.headers['content-type'] ?? '')) throw new InvalidInputError(NOT_MULTIPART);
  });
  scope.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
}

/** ANONYMOUS_IMPORT_LIMIT is the largest import an anonymous caller may send (1 MB): no 32 MB without an account. */
export const ANONYMOUS_IMPORT_LIMIT = 1024 * 1024;

/**
 * readImportFile streams the request's part named `file` into memory: at most IMPORT_FILE_LIMIT, or
 * ANONYMOUS_IMPORT_LIMIT for an anonymous caller (refused from the declared length when it is larger).
 */
export async function readImportFile(request: FastifyRequest, anonymous: boolean): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new InvalidInputError(NOT_MULTIPART);
  const limit = anonymous ? ANONYMOUS_IMPORT_LIMIT : IMPORT_FILE_LIMIT;
  const tooLarge = () =>
    anonymous
      ? new PayloadTooLargeError(
          `An anonymous import takes at most ${limit / 1024 / 1024} MB: sign in to send more`,
        )
      : new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  if (Number(request.headers['content-length'] ?? 0) > limit) throw tooLarge();
  try {
    for await (const part of request.parts({ limits: { ...IMPORT_MULTIPART_LIMITS, fileSize: limit } })) {
      if (part.fieldname !== 'file') {
        if (part.type === 'file') {
          throw new InvalidInputError(
            `The import request has an unexpected file part "${part.fieldname.slice(0, 100)}": send the file in the part "file"`,
          );
        }
        continue;
      }
      if (part.type === 'field') {
        if (part.valueTruncated) throw new InvalidInputError('Send the import file as a file part');
        return { filename: '', contentType: part.mimetype, content: Buffer.from(String(part.value)) };
      }
      return { filename: part.filename, contentType: part.mimetype, content: await part.toBuffer() };
    }
  } catch (error) {
    if ((error as Partial<FastifyError>).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw multipartError(error);
  }
  throw new InvalidInputError('The import request has no file part named "file"');
}

const LIMIT_MESSAGES: Record<string, string> = {
  FST_PARTS_LIMIT: 'The import request has too many parts: it takes one file part named "file"',
  FST_FILES_LIMIT: 'The import request has more than one file: it takes one file part named "file"',
  FST_FIELDS_LIMIT: 'The import request has too many fields: it takes one file part named "file"',
};

/** multipartError maps the parser's errors to ours: limits are 413, malformed framing is 400. */
function multipartError(error: unknown): Error {
  if (error instanceof InvalidInputError) return error;
  const code = (error as Partial<FastifyError>).code ?? '';
  const limit = LIMIT_MESSAGES[code];
  if (limit) return new PayloadTooLargeError(limit);
  const reason = error instanceof Error ? error.message : 'unreadable body';
  return new InvalidInputError(
    `The import request is not valid multipart/form-data: ${reason.slice(0, 200)}`,
  );
}
