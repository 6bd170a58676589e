/**
 * Photos for the participant screens without the upload code: stored photos' thumbnail URLs, and
 * a PhotoAdapter that loads the uploader (media-upload.ts) on the first photo picked, so pages
 * whose forms have no photo question never load it.
 */
import type { PhotoAdapter } from '../../components/forms/types.ts';
import { thumbnailUrl } from '../../shared/media.ts';
import { m } from '../../shared/i18n.ts';

let uploader: Promise<PhotoAdapter> | null = null;

/** The participant PhotoAdapter (`POST /api/media` with progress), loaded when first used. */
export const photoAdapter: PhotoAdapter = {
  thumbnailUrl,
  upload(file, options) {
    uploader ??= import('./media-upload.ts').then(
      (module) => module.createMediaUploader(),
      () => {
        uploader = null;
        throw new Error(m.participant_upload_not_started());
      },
    );
    return uploader.then((adapter) => adapter.upload(file, options));
  },
};
