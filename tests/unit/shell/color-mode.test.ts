import { describe, expect, it } from 'vitest';
import {
  $colorMode,
  COLOR_MODE_INLINE_SCRIPT,
  COLOR_MODE_STORAGE_KEY,
  applyColorMode,
  loadColorMode,
  readColorMode,
  setColorMode,
} from '../../../src/stores/color-mode.ts';
import { MemoryStorage } from './fakes.ts';

function fakeRoot() {
  const classes = new Set<string>();
  return {
    classes,
    classList: {
      add: (...names: string[]) => names.forEach((n) => classes.add(n)),
      remove: (...names: string[]) => names.forEach((n) => classes.delete(n)),
      toggle: (name: string, force?: boolean) => {
        if (force ?? !classes.has(name)) classes.add(name);
        else classes.delete(name);
        return classes.has(name);
      },
    },
  };
}

describe('colour mode (docs/product.md §3)', () => {
  it('reads system when nothing or something unknown is stored', () => {
    const storage = new MemoryStorage();
    expect(readColorMode(storage)).toBe('system');
    storage.setItem(COLOR_MODE_STORAGE_KEY, 'sepia');
    expect(readColorMode(storage)).toBe('system');
  });

  it('applies .light / .dark, and neither for system', () => {
    const root = fakeRoot();
    applyColorMode('dark', root);
    expect([...root.classes]).toEqual(['dark']);
    applyColorMode('light', root);
    expect([...root.classes]).toEqual(['light']);
    applyColorMode('system', root);
    expect([...root.classes]).toEqual([]);
  });

  it('stores and publishes a change', () => {
    const storage = new MemoryStorage();
    setColorMode('dark', storage);
    expect(storage.getItem(COLOR_MODE_STORAGE_KEY)).toBe('dark');
    expect($colorMode.get()).toBe('dark');
    expect(loadColorMode(new MemoryStorage())).toBe('system');
    expect(loadColorMode(storage)).toBe('dark');
  });

  it('has a tiny inline script that applies the stored mode before the first paint', () => {
    const root = fakeRoot();
    const storage = new MemoryStorage();
    storage.setItem(COLOR_MODE_STORAGE_KEY, 'light');
    new Function('localStorage', 'document', COLOR_MODE_INLINE_SCRIPT)(storage, { documentElement: root });
    expect([...root.classes]).toEqual(['light']);
    expect(COLOR_MODE_INLINE_SCRIPT.length).toBeLessThan(200);
  });
});
