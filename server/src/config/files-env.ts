import { z } from 'zod';
import { blankAsUndefined, count } from './env-values';

/**
 * FILE_SIGNED_URL_DEFAULT_MAX_S caps a signed URL's life at 7 days by default (S3's own presign limit).
 * Real apps ask for a year (`expires_in: 31536000`): the request is clamped to the cap, never refused.
 */
export const FILE_SIGNED_URL_DEFAULT_MAX_S = 7 * 24 * 3600;

const optionalText = z.preprocess(blankAsUndefined, z.string().min(1).optional());

/** FilesEnvShape lists the environment variables of uploaded files (Core.UploadFile and friends). */
export const FilesEnvShape = {
  // disk (DATA_DIR/files) by default; postgres by default when DATABASE_URL is set; s3 when chosen.
  FILE_STORAGE: z.preprocess(blankAsUndefined, z.enum(['disk', 'postgres', 's3']).optional()),
  FILE_MAX_MB: count(50, 100_000),
  /** FILE_ANONYMOUS_UPLOADS lets visitors who are not signed in upload to a public_without_login app. */
  FILE_ANONYMOUS_UPLOADS: z.preprocess(blankAsUndefined, z.enum(['on', 'off']).default('off')),
  /** FILE_ANONYMOUS_MAX_MB bounds one anonymous upload (FILE_MAX_MB still bounds it too). */
  FILE_ANONYMOUS_MAX_MB: count(10, 100_000),
  /** FILE_ANONYMOUS_DAILY_MB is what visitors from one IP may upload per UTC day, in all. */
  FILE_ANONYMOUS_DAILY_MB: count(50, 10_000_000),
  /** FILE_USER_DAILY_MB is what one signed-in user may upload per UTC day, in all. */
  FILE_USER_DAILY_MB: count(1024, 10_000_000),
  /** FILE_APP_MAX_MB is the most an app may keep in all (507 beyond it). */
  FILE_APP_MAX_MB: count(10_240, 1_000_000_000),
  /** FILE_ANONYMOUS_RETENTION_HOURS is how long an anonymous upload no record names is kept. */
  FILE_ANONYMOUS_RETENTION_HOURS: count(24, 24 * 365),
  FILE_SIGNED_URL_MAX_S: count(FILE_SIGNED_URL_DEFAULT_MAX_S, 10 * 365 * 24 * 3600),
  S3_ENDPOINT: z.preprocess(
    blankAsUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).optional(),
  ),
  S3_BUCKET: optionalText,
  S3_REGION: z.preprocess(blankAsUndefined, z.string().min(1).default('us-east-1')),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
};

/** FileStorageKind is where uploaded bytes live. */
export type FileStorageKind = 'disk' | 'postgres' | 's3';

interface FilesEnv {
  FILE_STORAGE?: FileStorageKind | undefined;
  DATABASE_URL?: string | undefined;
  S3_BUCKET?: string | undefined;
}

/**
 * fileStorageKind settles FILE_STORAGE, or returns the reason the setting cannot work: file bytes never go
 * to the embedded PGlite (a few MiB/s), and S3 needs a bucket.
 */
export function fileStorageKind(env: FilesEnv): { kind: FileStorageKind } | { problem: string } {
  const kind = env.FILE_STORAGE ?? (env.DATABASE_URL ? 'postgres' : 'disk');
  if (kind === 'postgres' && !env.DATABASE_URL) {
    return {
      problem:
        'FILE_STORAGE: postgres needs DATABASE_URL (file bytes are never kept in the embedded PGlite database); use FILE_STORAGE=disk or set DATABASE_URL',
    };
  }
  if (kind === 's3' && !env.S3_BUCKET) {
    return { problem: 'FILE_STORAGE: s3 needs S3_BUCKET (and S3_ENDPOINT for a non-AWS store)' };
  }
  return { kind };
}
