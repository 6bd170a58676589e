/**
 * Astro's middleware, run as each page is prerendered: the page's language (its path's prefix,
 * src/shared/languages.ts) is kept for the render, so every message of the page and of its
 * islands' first render is in it (src/shared/i18n.ts reads it through Paraglide's storage).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { defineMiddleware } from 'astro:middleware';
import { overwriteServerAsyncLocalStorage } from './paraglide/runtime.js';
import { splitLanguage, type Language } from './shared/languages.ts';

const storage = new AsyncLocalStorage<{ locale?: Language }>();
overwriteServerAsyncLocalStorage(storage);

export const onRequest = defineMiddleware((context, next) => storage.run({ locale: splitLanguage(context.url.pathname).language }, next));
