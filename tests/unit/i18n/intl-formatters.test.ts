// @vitest-environment happy-dom
/**
 * Decision 039: the compiled messages keep their Intl formatters (Paraglide's registry built new
 * ones at every call), and the page's head starts the Intl warm-up's worker once per page load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { m } from '../../../src/shared/i18n.ts';
import { intlWarmupInlineScript } from '../../../src/platform/intl-warmup.ts';

describe('a message with a count', () => {
  const Original = { NumberFormat: Intl.NumberFormat, PluralRules: Intl.PluralRules };
  afterEach(() => {
    Object.assign(Intl, Original);
  });

  it('is written in its language and builds its formatters once, however often it is shown', () => {
    const made = { number: 0, plural: 0 };
    Object.assign(Intl, {
      NumberFormat: new Proxy(Original.NumberFormat, { construct: (target, args: unknown[]) => (made.number++, Reflect.construct(target, args)) }),
      PluralRules: new Proxy(Original.PluralRules, { construct: (target, args: unknown[]) => (made.plural++, Reflect.construct(target, args)) }),
    });
    const texts = [1, 1250, 2, 7].map((count) => m.forms_count_questions({ count }, { locale: 'es' }));
    expect(texts).toEqual(['1 pregunta', '1250 preguntas', '2 preguntas', '7 preguntas']);
    // One of each at most: none when an earlier test in this process built the same ones already.
    expect(made.number).toBeLessThanOrEqual(1);
    expect(made.plural).toBeLessThanOrEqual(1);
    expect(m.forms_count_questions({ count: 1250 }, { locale: 'de' })).toBe('1.250 Fragen');
  });
});

describe('the Intl warm-up', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as unknown as Record<string, unknown>).__fieldworkIntlWarm;
  });

  it('starts one worker named after the page’s language, once per page load', () => {
    const started: { url: string; name: string | undefined }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(url: string, options?: WorkerOptions) {
          started.push({ url, name: options?.name });
        }
      },
    );
    document.documentElement.lang = 'ar';
    const script = intlWarmupInlineScript('/_astro/intl-warmup-worker-abc.js');
    new Function(script)();
    // A client-side navigation runs the <head>'s scripts again.
    new Function(script)();
    expect(started).toEqual([{ url: '/_astro/intl-warmup-worker-abc.js', name: 'ar' }]);
  });

  it('costs nothing but the head start where a worker cannot be made', () => {
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new DOMException('refused', 'SecurityError');
        }
      },
    );
    expect(() => new Function(intlWarmupInlineScript('/_astro/w.js'))()).not.toThrow();
  });
});
