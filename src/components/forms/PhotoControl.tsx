/**
 * The photo element: "Take a photo" (the camera on phones) and/or "Choose from library"
 * (several at once), each file in the media control's rows (`MediaControl.tsx`). The files
 * themselves go through the renderer's `MediaStore` (`store-uploads.ts`). Loaded with the first
 * photo field shown (`ElementField.tsx`).
 */
import type { ElementOf } from '../../shared/forms/definition.ts';
import type { ControlProps } from './types.ts';
import { m } from '../../shared/i18n.ts';
import { ImageIcon, MediaControl, MediaPickers } from './MediaControl.tsx';

export function PhotoControl(props: ControlProps<ElementOf<'photo'>>) {
  const { element, ids, ctx, describedBy } = props;
  return (
    <MediaControl
      element={element}
      ctx={ctx}
      nameOf={(number) => m.participant_form_photo_name({ number })}
      Icon={ImageIcon}
      countText={(kept) => m.participant_form_photo_count({ kept, max: element.maxFiles })}
    >
      <MediaPickers
        ids={ids}
        capture={element.capture ?? 'both'}
        cameraLabel={m.participant_form_photo_take()}
        libraryLabel={m.participant_form_photo_choose()}
        disabled={ctx.disabled}
        describedBy={describedBy}
        onPick={(files) => ctx.photos.add(element, files)}
      />
    </MediaControl>
  );
}
