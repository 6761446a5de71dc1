import { pipeline, Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { newStorageKey, type ByteRange, type FileStorage } from './file-storage';

/** S3Settings are where the bucket is and how to sign in to it (the keys may come from AWS's own chain). */
export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

/** PREFIX keeps our objects apart from anything else in a shared bucket. */
const PREFIX = 'files/';

function isMissing(error: unknown): boolean {
  const named = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return named.name === 'NoSuchKey' || named.name === 'NotFound' || named.$metadata?.httpStatusCode === 404;
}

/**
 * createS3FileStorage keeps files as objects in an S3-compatible bucket (path-style when S3_ENDPOINT is
 * set, as MinIO, s3rver and most self-hosted stores need). Uploads stream in 5 MiB parts, so an upload of
 * unknown length is never held whole.
 */
export function createS3FileStorage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
  const Bucket = settings.bucket;
  const stat = async (key: string) => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: PREFIX + key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    async put(body: Readable) {
      const key = newStorageKey();
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      pipeline(body, counter, () => undefined);
      const upload = new Upload({ client, params: { Bucket, Key: PREFIX + key, Body: counter } });
      try {
        await upload.done();
      } catch (error) {
        await upload.abort().catch(() => undefined);
        throw error;
      }
      return { key, size };
    },
    async get(key: string, range?: ByteRange) {
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: PREFIX + key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    stat,
    async delete(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: PREFIX + key }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) yield object.Key.slice(PREFIX.length);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
