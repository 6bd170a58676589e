import type { PageCspOptions } from '../shared/csp.ts';
import type { Config } from './config.ts';
import { mediaRedirectOrigin } from './storage/index.ts';

/**
 * What the page CSP allows beyond our own origin, from the configuration (the Node server and
 * deploy:nginx): Google Analytics when PUBLIC_GA_ID is set, and the media store's origin (as an
 * image and a video source) when photo and video requests are answered with a signed redirect to
 * the bucket (docs/deploy.md).
 */
export function pageCspOptions(config: Pick<Config, 'gaId' | 'mediaStore' | 's3'>): PageCspOptions {
  const media = mediaRedirectOrigin(config);
  return { analyticsId: config.gaId, imgSrc: media ? [media] : [], mediaSrc: media ? [media] : [] };
}
