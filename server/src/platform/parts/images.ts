// Generated images: the provider (OpenAI-compatible, or the built-in placeholder), `Core.GenerateImage`,
// and the `/media/` files that serve them (also the site's generated icons).
import type { ServerConfig } from '../../config/server-env';
import { imageHandlers } from '../../routes/core-handlers';
import { registerMediaRoutes } from '../../routes/media';
import { createBuiltinImageProvider, type ImageProvider } from '../../services/images/image-provider';
import { createImageService, type ImageService } from '../../services/images/image-service';
import { createOpenAiImageProvider } from '../../services/images/openai-image-provider';
import { createImagesStore } from '../../store/images-store';
import type { Part, Shared } from './part';

/** ImagesPart is the image service (the site part serves its generated icons from it). */
export interface ImagesPart extends Part {
  images: ImageService;
}

function createImageProvider(config: ServerConfig): ImageProvider {
  if (!config.IMAGE_PROVIDER) return createBuiltinImageProvider();
  return createOpenAiImageProvider({
    endpoint: config.IMAGE_PROVIDER,
    apiKey: config.IMAGE_PROVIDER_KEY,
    model: config.IMAGE_MODEL,
    timeoutMs: config.IMAGE_PROVIDER_TIMEOUT_MS,
  });
}

/** buildImagesPart builds the image service on IMAGE_PROVIDER (none: the built-in provider). */
export function buildImagesPart(shared: Shared): ImagesPart {
  const images = createImageService(createImagesStore(shared.db), createImageProvider(shared.config));
  return {
    name: 'images',
    images,
    coreHandlers: imageHandlers(images, shared.config.PUBLIC_URL),
    routes: (app) => registerMediaRoutes(app, images),
  };
}
