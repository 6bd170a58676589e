/**
 * Option order: "random" order that stays the same for one respondent. The seed is a string
 * that belongs to the response (its id); each element mixes in its own id, so two questions of
 * one response are shuffled independently. The same seed gives the same order in the browser and
 * on the server, today and after a reload. Zod-free and dependency-free.
 *
 * Changing these functions changes every respondent's order: keep them as they are.
 */
import type { FormElement, FormOption } from './definition.ts';

/**
 * cyrb53 (bryc, public domain): a fast 53-bit string hash.
 * https://github.com/bryc/code/blob/master/jshash/experimental/cyrb53.js
 */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** mulberry32 (Tommy Ettinger, public domain): a small 32-bit PRNG giving numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `items` in a shuffled order fixed by `seed` (Fisher–Yates driven by mulberry32 seeded with cyrb53). */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const out = items.slice();
  const random = mulberry32(cyrb53(seed) % 4294967296);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const item = out[i] as T;
    out[i] = out[j] as T;
    out[j] = item;
  }
  return out;
}

/**
 * An element's options in display order. `optionOrder: "random"` (single and multiple choice)
 * shuffles them with `seed` + the element id; exclusive options ("None of these") keep their
 * place, as respondents expect them at the end. Other types with options (dropdown, ranking)
 * keep the given order; types without options give []. The "Other" choice is not an option:
 * the renderer shows it last.
 */
export function displayOptions(element: FormElement, seed: string): FormOption[] {
  switch (element.type) {
    case 'single_choice':
    case 'multiple_choice': {
      if (element.optionOrder !== 'random') return element.options.slice();
      const anchored = new Set(element.type === 'multiple_choice' ? (element.exclusive ?? []) : []);
      const shuffled = seededShuffle(
        element.options.filter((option) => !anchored.has(option.id)),
        `${seed}:${element.id}`,
      );
      let next = 0;
      return element.options.map((option) => (anchored.has(option.id) ? option : (shuffled[next++] as FormOption)));
    }
    case 'dropdown':
    case 'ranking':
      return element.options.slice();
    default:
      return [];
  }
}
