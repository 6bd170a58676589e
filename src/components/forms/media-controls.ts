/** The photo and video controls, one chunk loaded with the first form that asks for either (`ElementField.tsx`). */
export { PhotoControl } from './PhotoControl.tsx';
export { VideoControl } from './VideoControl.tsx';
