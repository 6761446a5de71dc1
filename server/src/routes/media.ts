import type { FastifyInstance } from 'fastify';
import { createCompressionMemo, negotiateEncoding } from '../lib/compression';
import type { ImageService } from '../services/images/image-service';

const MEDIA_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  // SVGs may hold script; served alone they must not run any or load anything.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/** registerMediaRoutes serves stored images at `/media/<key>.<ext>`; names are content hashes, so immutable. */
export function registerMediaRoutes(app: FastifyInstance, images: ImageService): void {
  const compress = createCompressionMemo(16);
  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const media = await images.read(request.params.file);
    if (!media) return reply.code(404).send({ message: `Media file "${request.params.file}" was not found` });
    reply.headers(MEDIA_HEADERS).type(media.contentType);
    if (media.contentType !== 'image/svg+xml') return reply.send(media.bytes);
    // Raster formats are already compressed; SVG is text and shrinks several times.
    reply.header('vary', 'Accept-Encoding');
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return reply.send(media.bytes);
    return reply.header('content-encoding', encoding).send(compress(media.bytes.toString('utf8'), encoding));
  });
}
