/**
 * Safe access to the browser's storages: private modes, disabled storage and quota errors become
 * "nothing stored" instead of exceptions. Every store that keeps something locally goes through here.
 */

export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function pick(name: 'localStorage' | 'sessionStorage'): StorageLike | null {
  try {
    return typeof globalThis[name] === 'object' && globalThis[name] !== null ? globalThis[name] : null;
  } catch {
    return null;
  }
}

export const local = (): StorageLike | null => pick('localStorage');
export const session = (): StorageLike | null => pick('sessionStorage');

export function readItem(storage: StorageLike | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(storage: StorageLike | null, key: string, value: string): boolean {
  try {
    if (!storage) return false;
    storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(storage: StorageLike | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing to remove from a storage we cannot use.
  }
}
