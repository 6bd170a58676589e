import type { Ref } from 'react';

export interface HiddenFileInputProps {
  ref: Ref<HTMLInputElement>;
  id?: string;
  accept: string;
  /** The first chosen file (undefined when none was chosen). */
  onFile: (file: File | undefined) => void;
}

/**
 * A file input that a button opens (`ref.current?.click()`): hidden from sight, the keyboard and
 * assistive technology, since the button is what people use. It clears itself after each choice,
 * so choosing the same file again is seen again.
 */
export function HiddenFileInput({ ref, id, accept, onFile }: HiddenFileInputProps) {
  return (
    <input
      ref={ref}
      id={id}
      type="file"
      accept={accept}
      className="sr-only"
      tabIndex={-1}
      aria-hidden="true"
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        onFile(file);
      }}
    />
  );
}
