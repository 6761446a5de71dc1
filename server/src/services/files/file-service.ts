import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { z } from 'zod';
import {
  ForbiddenError,
  GoneError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { SignedFileQuerySchema } from '../../schemas/files';
import type { FileRow, FilesStore } from '../../store/files-store';

export type { FileRow };
import { requireSignInUnlessOpen } from '../identity/app-access';
import type { AppsService } from '../apps/apps-service';
import { FileInspector } from './file-inspector';
import { STORAGE_KEY_PATTERN, type ByteRange, type FileStorage } from './file-storage';
import { servedType } from './served-type';
import type { UploadAllowance, UploadQuota } from './upload-quota';

/** SIGNED_URL_DEFAULT_S is a signed URL's life when the caller gives no `expires_in` (the SDK's default). */
export const SIGNED_URL_DEFAULT_S = 300;

/** SignatureExpiredError says a signed URL was genuine but its time is over (answered 410). */
export class SignatureExpiredError extends GoneError {
  override name = 'SignatureExpiredError';
}

/** FileServiceOptions are the storage driver, the files table and the limits. */
export interface FileServiceOptions {
  storage: FileStorage;
  files: FilesStore;
  apps: AppsService;
  maxBytes: number;
  /** anonymousUploads lets visitors who are not signed in upload (FILE_ANONYMOUS_UPLOADS, on open apps only). */
  anonymousUploads: boolean;
  quota: UploadQuota;
  /** signingSecret is the server's JWT secret; the URL-signing key is derived from it, never defaulted. */
  signingSecret: string;
  signedUrlMaxSeconds: number;
  now?: () => number;
}

/** UploadInput is one multipart file part on its way in. */
export interface UploadInput {
  appId: string;
  caller: Caller;
  private: boolean;
  filename: string;
  declaredType: string | undefined;
  body: Readable;
  /** allowance is what admitUpload allowed this upload. */
  allowance: UploadAllowance;
}

/** SignedFileQuery is the signature part of a private file's URL (its `expires` and `signature`). */
export type SignedFileQuery = z.infer<typeof SignedFileQuerySchema>;

/** SignedPath is the path and query of a signed URL, and how many seconds it is valid. */
export interface SignedPath {
  path: string;
  seconds: number;
}

/** FileService is uploads, signed URLs and reads, with who may do each. */
export interface FileService {
  /** maxBytes is the largest file an upload may store (FILE_MAX_MB). */
  maxBytes: number;
  /** admitUpload says what caller (from ip) may upload to appId, or refuses (sign-in, quotas). */
  admitUpload(appId: string, caller: Caller, ip: string): Promise<UploadAllowance>;
  /** releaseUpload gives back an admitted upload's reservation when it stored nothing (idempotent). */
  releaseUpload(appId: string, allowance: UploadAllowance): Promise<void>;
  /** upload streams a file into storage and records it, within what admitUpload allowed. */
  upload(input: UploadInput): Promise<FileRow>;
  /** privateUri is the `file_uri` of a private file. */
  privateUri(row: FileRow): string;
  /** signPrivate gives the path and query of a signed URL for appId's file_uri, valid expiresIn seconds. */
  signPrivate(appId: string, fileUri: string, expiresIn: number | undefined): Promise<SignedPath>;
  /** findReadable returns a file a request may read: public by key, private only with a valid signature. */
  findReadable(appId: string, key: string, signed?: SignedFileQuery): Promise<FileRow>;
  /** open streams a file's bytes (a range of them when given). */
  open(file: FileRow, range?: ByteRange): Promise<Readable>;
}

/** cleanFilename keeps a display name short and free of path separators and control characters. */
export function cleanFilename(name: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .trim()
    .slice(-100);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

const PRIVATE_URI = /^private\/([0-9a-f]{32})(?:\/[^?#]*)?$/;

/** createFileService is uploads, signed URLs and reads, with who may do each. */
export function createFileService(options: FileServiceOptions): FileService {
  const now = options.now ?? (() => Date.now());
  // A key of its own, so a file signature can never pass for an access token or the reverse.
  const signingKey = createHmac('sha256', options.signingSecret).update('queen files signed-url v1').digest();
  const signatureOf = (appId: string, key: string, expires: number) =>
    createHmac('sha256', signingKey).update(`${appId}\n${key}\n${expires}`).digest('base64url');

  /**
   * admitUpload says what caller (from ip) may upload to appId: anonymous callers only where the server
   * takes anonymous uploads (FILE_ANONYMOUS_UPLOADS) and the app is public without login; then the quotas.
   */
  async function admitUpload(appId: string, caller: Caller, ip: string): Promise<UploadAllowance> {
    if (caller.kind === 'anonymous') {
      if (!options.anonymousUploads) {
        throw new UnauthorizedError(
          'Sign in to upload files: this server does not take uploads from visitors who are not signed in (FILE_ANONYMOUS_UPLOADS)',
          'auth_required',
        );
      }
      const { visibility } = await options.apps.findAccessSettings(appId);
      requireSignInUnlessOpen(visibility, caller, 'Sign in to upload files to this app');
    }
    return options.quota.admit(appId, caller, ip);
  }

  return {
    maxBytes: options.maxBytes,
    admitUpload,
    /** releaseUpload gives back an admitted upload's reservation when it stored nothing (idempotent). */
    releaseUpload: (appId: string, allowance: UploadAllowance) => options.quota.settle(appId, allowance, 0),
    /** upload streams a file into storage and records it, within what admitUpload allowed. */
    async upload(input: UploadInput): Promise<FileRow> {
      // A stream already torn down before its end (a multipart part cut short) would never end a pipeline.
      if (input.body.destroyed && !input.body.readableEnded) {
        throw new InvalidInputError(
          'The upload is not valid multipart/form-data: its body ends inside the file',
        );
      }
      const inspector = new FileInspector(input.allowance.maxBytes, input.allowance.setting);
      // pipeline carries a failure either way: a broken upload or a limit aborts storage's write.
      // A body that fails (or was already torn down: a multipart part cut short) fails the inspector, so
      // storage's write ends with the error rather than waiting for bytes that will never come.
      pipeline(input.body, inspector, (error) => {
        if (error && !inspector.destroyed) inspector.destroy(error);
      });
      const stored = await options.storage.put(inspector);
      const seen = inspector.result();
      const type = servedType(seen.sniffedType, input.declaredType);
      const row: FileRow = {
        key: stored.key,
        app_id: input.appId,
        private: input.private,
        filename: cleanFilename(input.filename),
        content_type: type.contentType,
        inline: type.inline,
        size: stored.size,
        sha256: seen.sha256,
        created_by_id: input.caller.kind === 'user' ? input.caller.user.id : null,
        anonymous: input.caller.kind === 'anonymous',
      };
      try {
        await options.files.insert(row);
      } catch (error) {
        await options.storage.delete(stored.key).catch(() => undefined);
        throw error;
      }
      await options.quota.settle(input.appId, input.allowance, stored.size);
      return row;
    },
    /** privateUri is the `file_uri` of a private file. */
    privateUri: (row: FileRow) => `private/${row.key}/${encodeURIComponent(row.filename)}`,
    /**
     * signPrivate gives the path and query of a signed URL for file_uri valid for expiresIn seconds (default
     * 300), clamped to FILE_SIGNED_URL_MAX_S; the file must be appId's.
     */
    async signPrivate(appId: string, fileUri: string, expiresIn: number | undefined) {
      const match = PRIVATE_URI.exec(fileUri);
      const file = match?.[1] ? await options.files.find(appId, match[1]) : null;
      if (!file?.private) throw new NotFoundError(`No private file "${fileUri.slice(0, 120)}" in this app`);
      const seconds = Math.min(Math.max(1, expiresIn ?? SIGNED_URL_DEFAULT_S), options.signedUrlMaxSeconds);
      const expires = Math.floor(now() / 1000) + seconds;
      const path = `/api/apps/${appId}/files/private/${file.key}/${encodeURIComponent(file.filename)}`;
      return {
        path: `${path}?expires=${expires}&signature=${signatureOf(appId, file.key, expires)}`,
        seconds,
      };
    },
    /**
     * findReadable returns the row of a file a request may read: a public one by its key, a private one only
     * with a valid, unexpired signature (403 when tampered, SignatureExpiredError when expired).
     */
    async findReadable(
      appId: string,
      key: string,
      signed?: { expires?: string | undefined; signature?: string | undefined },
    ): Promise<FileRow> {
      if (signed) {
        const expires = Number(signed.expires);
        const given = Buffer.from(signed.signature ?? '');
        const wanted = Buffer.from(signatureOf(appId, key, expires));
        const genuine =
          /^\d{1,12}$/.test(signed.expires ?? '') &&
          given.length === wanted.length &&
          timingSafeEqual(given, wanted);
        if (!genuine) throw new ForbiddenError('This file link is not valid: its signature does not match');
        if (expires * 1000 <= now()) {
          throw new SignatureExpiredError('This file link has expired: ask the app for a new one');
        }
      }
      const file = STORAGE_KEY_PATTERN.test(key) ? await options.files.find(appId, key) : null;
      if (!file || file.private !== Boolean(signed)) throw new NotFoundError('File not found');
      return file;
    },
    /** open streams a file's bytes (a range of them when given). */
    async open(file: FileRow, range?: ByteRange): Promise<Readable> {
      const body = await options.storage.get(file.key, range);
      if (!body) throw new NotFoundError('File not found: its bytes are missing from storage');
      return body;
    },
  };
}
