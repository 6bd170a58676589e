import type { PageCspOptions } from '../shared/csp.ts';
import type { Config } from './config.ts';
import { mediaRedirectOrigin } from './storage/index.ts';

/**
 * What the page CSP allows beyond our own origin, from the configuration (the Node server and
 * deploy:nginx): Google Analytics when PUBLIC_GA_ID is set, and the photo store's origin when photo
 * requests are answered with a signed redirect to the bucket (docs/deploy.md).
 */
export function pageCspOptions(config: Pick<Config, 'gaId' | 'mediaStore' | 's3'>): PageCspOptions {
  const media = mediaRedirectOrigin(config);
  return { analyticsId: config.gaId, imgSrc: media ? [media] : [] };
}
