import { z } from 'zod';

/** CreateFileSignedUrlSchema is `Core.CreateFileSignedUrl`'s body: a private file's URI and a life in seconds. */
export const CreateFileSignedUrlSchema = z.object({
  file_uri: z.string().min(1, 'file_uri is required').max(1000),
  expires_in: z.coerce.number().int('expires_in must be a whole number of seconds').positive().optional(),
});

/** UploadParamsSchema is the path of a Core file integration call. */
export const UploadParamsSchema = z.object({ appId: z.string().min(1).max(64) });

/** FileParamsSchema is the path of a served file: app, key and a display name (ignored). */
export const FileParamsSchema = z.object({
  appId: z.string().min(1).max(64),
  key: z.string().max(64),
  name: z.string().max(300).optional(),
});

/** SignedFileQuerySchema is the signature part of a private file's URL. */
export const SignedFileQuerySchema = z.object({
  expires: z.string().max(20).optional(),
  signature: z.string().max(100).optional(),
});
