/**
 * File to base64 (docs/product.md §8): reads a file or blob as a `data:<type>;base64,<data>` URL with
 * FileReader. Every failure — no FileReader, a read error or abort, a result that is not a
 * string — rejects with exactly "Failed to convert file to base64 string" (the underlying
 * problem, when there is one, is the error's `cause`).
 */
import { FILE_TO_BASE64_ERROR } from '../../shared/ui-constants.ts';

export function fileToBase64(file: Blob): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const fail = (cause?: unknown) => reject(cause === undefined ? new Error(FILE_TO_BASE64_ERROR) : new Error(FILE_TO_BASE64_ERROR, { cause }));
    try {
      const reader = new FileReader();
      reader.onload = () => {
        if (typeof reader.result === 'string') resolve(reader.result);
        else fail();
      };
      reader.onerror = () => fail(reader.error ?? undefined);
      reader.onabort = () => fail(reader.error ?? undefined);
      reader.readAsDataURL(file);
    } catch (error) {
      fail(error);
    }
  });
}

/** The base64 payload of a data URL (the part after the first comma). */
export function base64FromDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return comma === -1 ? dataUrl : dataUrl.slice(comma + 1);
}
