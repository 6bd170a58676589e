import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64FromDataUrl, fileToBase64 } from '../../../src/lib/ui-kit/file-to-base64.ts';

const MESSAGE = 'Failed to convert file to base64 string';

type Outcome = { kind: 'load'; result: string | ArrayBuffer | null } | { kind: 'error' } | { kind: 'abort' } | { kind: 'throw' };

/** A FileReader stand-in: readAsDataURL finishes on the next tick with the chosen outcome. */
function fakeFileReader(outcome: Outcome) {
  return class FakeFileReader {
    result: string | ArrayBuffer | null = null;
    error: DOMException | null = null;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    readAsDataURL(blob: Blob): void {
      if (outcome.kind === 'throw') throw new TypeError('not a Blob');
      void blob;
      queueMicrotask(() => {
        if (outcome.kind === 'load') {
          this.result = outcome.result;
          this.onload?.();
        } else if (outcome.kind === 'error') {
          this.error = new DOMException('read failed', 'NotReadableError');
          this.onerror?.();
        } else {
          this.onabort?.();
        }
      });
    }
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fileToBase64', () => {
  it('resolves with the data URL', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'load', result: 'data:text/plain;base64,aGk=' }));
    await expect(fileToBase64(new Blob(['hi'], { type: 'text/plain' }))).resolves.toBe('data:text/plain;base64,aGk=');
  });

  it('rejects with the exact message on a read error, keeping the cause', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'error' }));
    const error = await fileToBase64(new Blob(['x'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(MESSAGE);
    expect((error as Error).cause).toBeInstanceOf(DOMException);
  });

  it('rejects with the exact message on abort', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'abort' }));
    await expect(fileToBase64(new Blob(['x']))).rejects.toThrow(new Error(MESSAGE));
  });

  it('rejects with the exact message when the result is not a string', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'load', result: new ArrayBuffer(2) }));
    await expect(fileToBase64(new Blob(['x']))).rejects.toThrow(MESSAGE);
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'load', result: null }));
    await expect(fileToBase64(new Blob(['x']))).rejects.toThrow(MESSAGE);
  });

  it('rejects with the exact message when reading throws', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'throw' }));
    const error = await fileToBase64(new Blob(['x'])).catch((e: unknown) => e);
    expect((error as Error).message).toBe(MESSAGE);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('rejects with the exact message when there is no FileReader', async () => {
    vi.stubGlobal('FileReader', undefined);
    await expect(fileToBase64(new Blob(['x']))).rejects.toThrow(MESSAGE);
  });

  it('the message is exactly docs/product.md §8', async () => {
    vi.stubGlobal('FileReader', fakeFileReader({ kind: 'error' }));
    const error = await fileToBase64(new Blob(['x'])).catch((e: unknown) => e);
    expect(String(error)).toBe('Error: Failed to convert file to base64 string');
  });
});

describe('base64FromDataUrl', () => {
  it('takes the part after the comma', () => {
    expect(base64FromDataUrl('data:image/png;base64,iVBORw0KGgo=')).toBe('iVBORw0KGgo=');
    expect(base64FromDataUrl('aGk=')).toBe('aGk=');
  });
});
