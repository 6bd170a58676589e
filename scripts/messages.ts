/**
 * The interface's messages (issue 31; docs/decisions/034-messages.md): `messages/{area}/{language}.json`
 * in the inlang message format, compiled by Paraglide JS into `src/paraglide/` (generated, not
 * committed: `npm install`, `npm test` and `npm run build` compile it first), and checked.
 *
 * `node scripts/messages.ts` compiles; `--check` also lists what is wrong and exits 1 when
 * anything is (the unit test tests/unit/i18n/messages.test.ts runs the same check in `npm test`):
 * - a message missing in a language, or present in a language and not in English;
 * - a message no code uses (its key appears nowhere under src/ outside src/paraglide/);
 * - placeholders that differ between a message's languages;
 * - a plural missing a form of a language's plural rules (`Intl.PluralRules`: Arabic has six);
 * - an empty text, or a text left in English (the same as the source) unless listed in
 *   `messages/same-as-source.json` (names, brands and words that are the same in that language).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from '../src/shared/languages.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PROJECT_DIR = path.join(root, 'project.inlang');
export const OUT_DIR = path.join(root, 'src', 'paraglide');

/** A message as stored: a text with `{name}` placeholders, or variants (plurals) in the inlang message format. */
type Variants = { declarations?: string[]; selectors?: string[]; match: Record<string, string> }[];
export type StoredMessage = string | Variants;
export type Catalogue = Record<Language, Map<string, { area: string; message: StoredMessage }>>;

/** The areas' files, from the project's path patterns. */
export function messageFiles(): { area: string; file: (language: Language) => string }[] {
  const settings = JSON.parse(fs.readFileSync(path.join(PROJECT_DIR, 'settings.json'), 'utf8')) as { 'plugin.inlang.messageFormat': { pathPattern: string[] } };
  return settings['plugin.inlang.messageFormat'].pathPattern.map((pattern) => ({
    area: path.basename(path.dirname(pattern)),
    file: (language: Language) => path.join(root, pattern.replace('{locale}', language)),
  }));
}

export function readCatalogue(): { catalogue: Catalogue; problems: string[] } {
  const problems: string[] = [];
  const catalogue = Object.fromEntries(LANGUAGES.map((language) => [language, new Map()])) as Catalogue;
  for (const { area, file } of messageFiles()) {
    for (const language of LANGUAGES) {
      const name = path.relative(root, file(language));
      let content: Record<string, unknown>;
      try {
        content = JSON.parse(fs.readFileSync(file(language), 'utf8')) as Record<string, unknown>;
      } catch (error) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      for (const [key, message] of Object.entries(content)) {
        if (key.startsWith('$')) continue; // "$schema"
        if (catalogue[language].has(key)) problems.push(`${name}: "${key}" is also in messages/${catalogue[language].get(key)?.area}/`);
        catalogue[language].set(key, { area, message: message as StoredMessage });
      }
    }
  }
  return { catalogue, problems };
}

/** The texts of a message (one, or each variant's). */
function textsOf(message: StoredMessage): string[] {
  return typeof message === 'string' ? [message] : message.flatMap((variant) => Object.values(variant.match));
}

/** The placeholders a message takes: `{name}` in its texts and its declared inputs. */
function inputsOf(message: StoredMessage): string[] {
  const names = new Set<string>();
  for (const text of textsOf(message)) for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) names.add(match[1] as string);
  if (typeof message !== 'string') {
    for (const variant of message)
      for (const declaration of variant.declarations ?? []) if (declaration.startsWith('input ')) names.add(declaration.slice(6).trim());
    // A local (`local countPlural = count: plural`) is not an input.
    for (const variant of message)
      for (const declaration of variant.declarations ?? []) {
        const local = /^local\s+([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(declaration)?.[1];
        if (local) names.delete(local);
      }
  }
  return [...names].sort();
}

/** The plural selectors of a message: for each, the match keys' forms. */
function pluralForms(message: StoredMessage): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  if (typeof message === 'string') return forms;
  for (const variant of message) {
    const plurals = (variant.declarations ?? [])
      .map((declaration) => /^local\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*plural\b/.exec(declaration)?.[1])
      .filter((name): name is string => name !== undefined);
    for (const name of plurals) {
      const seen = forms.get(name) ?? new Set<string>();
      for (const key of Object.keys(variant.match))
        for (const part of key.split(/\s*,\s*/)) {
          const [selector, value] = part.split('=');
          if (selector?.trim() === name && value !== undefined) seen.add(value.trim());
        }
      forms.set(name, seen);
    }
  }
  return forms;
}

/** Every file under src/ but the generated messages, read once. */
function sourceText(): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== OUT_DIR) walk(full);
      } else if (/\.(ts|tsx|astro|mjs|js)$/.test(entry.name)) parts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(root, 'src'));
  return parts.join('\n');
}

/** What is wrong with the messages (empty: nothing). */
export function checkMessages(): string[] {
  const { catalogue, problems } = readCatalogue();
  const allowed = JSON.parse(fs.readFileSync(path.join(root, 'messages', 'same-as-source.json'), 'utf8')) as Partial<Record<Language, string[]>>;
  const source = catalogue[SOURCE_LANGUAGE];
  const code = sourceText();
  const used = new Set(code.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g) ?? []);
  for (const [key, { area, message }] of source) {
    if (!used.has(key)) problems.push(`messages/${area}: "${key}" is used by no code under src/`);
    for (const text of textsOf(message)) if (text.trim() === '') problems.push(`messages/${area}/${SOURCE_LANGUAGE}.json: "${key}" is empty`);
    const inputs = inputsOf(message).join(', ');
    const sourceTexts = textsOf(message);
    for (const language of LANGUAGES) {
      if (language === SOURCE_LANGUAGE) continue;
      const translated = catalogue[language].get(key);
      if (!translated) {
        problems.push(`messages/${area}/${language}.json: "${key}" is missing`);
        continue;
      }
      const theirs = inputsOf(translated.message).join(', ');
      if (theirs !== inputs) problems.push(`messages/${area}/${language}.json: "${key}" takes {${theirs}}, English {${inputs}}`);
      const texts = textsOf(translated.message);
      if (texts.some((text) => text.trim() === '')) problems.push(`messages/${area}/${language}.json: "${key}" is empty`);
      if (
        texts.length === sourceTexts.length &&
        texts.every((text, i) => text === sourceTexts[i]) &&
        /[A-Za-z]{3}/.test(sourceTexts.join(' ')) &&
        !allowed[language]?.includes(key)
      )
        problems.push(`messages/${area}/${language}.json: "${key}" is the English text (translate it, or list it in messages/same-as-source.json)`);
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const [selector, forms] of pluralForms(translated.message)) {
        const missing = categories.filter((category) => !forms.has(category) && !forms.has('*'));
        if (missing.length > 0)
          problems.push(
            `messages/${area}/${language}.json: "${key}" has no ${missing.join(', ')} form of ${selector} (${language} has ${categories.join(', ')})`,
          );
      }
    }
    const englishCategories = new Intl.PluralRules(SOURCE_LANGUAGE).resolvedOptions().pluralCategories;
    for (const [selector, forms] of pluralForms(message)) {
      const missing = englishCategories.filter((category) => !forms.has(category) && !forms.has('*'));
      if (missing.length > 0) problems.push(`messages/${area}/en.json: "${key}" has no ${missing.join(', ')} form of ${selector}`);
    }
  }
  for (const language of LANGUAGES) {
    for (const [key, { area }] of catalogue[language]) if (!source.has(key)) problems.push(`messages/${area}/${language}.json: "${key}" is not in English`);
  }
  return problems;
}

/**
 * The runtime the compiled messages run on, in place of Paraglide's generated runtime.js. The
 * messages ask it for the language alone (`getLocale`, `experimentalStaticLocale`); Paraglide's
 * own runtime also carries the detection strategies, URL localisation and cookie code we do not
 * use (10.5 KB minified on every page, measured). src/shared/i18n.ts sets the language
 * (`overwriteGetLocale`), src/middleware.ts the prerender's (`overwriteServerAsyncLocalStorage`);
 * Paraglide's runtime.d.ts stays (these are the same signatures).
 */
const LEAN_RUNTIME = `/* eslint-disable */
// Written by scripts/messages.ts in place of Paraglide's runtime (decision 034).
import { LANGUAGES, SOURCE_LANGUAGE } from '../shared/languages.ts';

export const baseLocale = SOURCE_LANGUAGE;
export const locales = LANGUAGES;
export const experimentalStaticLocale = __STATIC__;
export const isServer = typeof window === 'undefined';

let serverAsyncLocalStorage;

export function overwriteServerAsyncLocalStorage(value) {
  serverAsyncLocalStorage = value;
}

export function getServerAsyncLocalStorage() {
  return serverAsyncLocalStorage;
}

export let getLocale = () => serverAsyncLocalStorage?.getStore()?.locale ?? baseLocale;

export const overwriteGetLocale = (fn) => {
  getLocale = fn;
};
`;

/**
 * The formatters the compiled messages call (`registry.plural`, `registry.number`, …), in place of
 * Paraglide's generated registry.js, which builds a new `Intl` object on every call: a message with
 * a count built an `Intl.PluralRules` and an `Intl.NumberFormat` each time it was shown (a list of
 * fifty rows, a hundred). These keep one per locale and options (the options are the messages'
 * literals: a handful in all). Paraglide's registry.d.ts stays (the same signatures).
 */
const CACHED_REGISTRY = `/* eslint-disable */
// Written by scripts/messages.ts in place of Paraglide's registry (decision 034).
const made = new Map();

function kept(kind, locale, options, make) {
	const key = kind + ' ' + locale + ' ' + JSON.stringify(options ?? {});
	let value = made.get(key);
	if (!value) {
		value = make();
		made.set(key, value);
	}
	return value;
}

export function plural(locale, input, options) {
	return kept('plural', locale, options, () => new Intl.PluralRules(locale, options)).select(Number(input));
}

export function number(locale, input, options) {
	return kept('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(Number(input));
}

export function datetime(locale, input, options) {
	return kept('datetime', locale, options, () => new Intl.DateTimeFormat(locale, options)).format(new Date(input));
}

export function relativetime(locale, input, options) {
	const { unit, ...intlOptions } = options;
	return kept('relativetime', locale, intlOptions, () => new Intl.RelativeTimeFormat(locale, intlOptions)).format(Number(input), unit);
}
`;

/**
 * Compiles the messages into src/paraglide/ (typed message functions, one module each). With
 * `only`, every message is compiled for that language alone (Paraglide's `experimentalStaticLocale`):
 * a build of one language's pages (scripts/build.ts) then ships its texts and no other's.
 */
export async function compileMessages(only?: Language): Promise<void> {
  const { compile } = await import('@inlang/paraglide-js');
  await compile({
    project: PROJECT_DIR,
    outdir: OUT_DIR,
    // The language is the page's (<html lang>, src/shared/i18n.ts) or, on the server, the one a
    // call gives (a mail's recipient's): no cookie or URL detection of Paraglide's own.
    strategy: ['globalVariable', 'baseLocale'],
    emitTsDeclarations: true,
    emitGitIgnore: false,
    emitPrettierIgnore: false,
    emitReadme: false,
    includeEslintDisableComment: true,
    ...(only ? { experimentalStaticLocale: only } : {}),
  });
  fs.writeFileSync(path.join(OUT_DIR, 'runtime.js'), LEAN_RUNTIME.replace('__STATIC__', only ? JSON.stringify(only) : 'undefined'));
  fs.writeFileSync(path.join(OUT_DIR, 'registry.js'), CACHED_REGISTRY);
  // Paraglide's middleware for its own detection: unused, and it needs the runtime replaced above.
  for (const file of ['server.js', 'server.d.ts']) fs.rmSync(path.join(OUT_DIR, file), { force: true });
  // The tests' copy: every message in one module (vitest.config.ts aliases messages.js to it).
  // Loading the 3,000 one-message modules anew in every test file doubled the suite's time; the
  // site's build keeps them apart, so a page carries only the messages it calls.
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(OUT_DIR, 'messages.js')],
    outfile: path.join(OUT_DIR, MESSAGES_BUNDLE),
    bundle: true,
    format: 'esm',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'silent',
    // One runtime for all: the one src/shared/i18n.ts sets the language on.
    plugins: [{ name: 'shared-runtime', setup: (b) => b.onResolve({ filter: /runtime\.js$/ }, () => ({ path: './runtime.js', external: true })) }],
  });
}

/** The tests' single-module copy of the messages, in src/paraglide/. */
export const MESSAGES_BUNDLE = 'messages.bundle.js';

const main = process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (main) {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined && !LANGUAGES.includes(only as Language)) throw new Error(`--only=${only}: not one of ${LANGUAGES.join(', ')}`);
  await compileMessages(only as Language | undefined);
  if (process.argv.includes('--check')) {
    const problems = checkMessages();
    for (const problem of problems) console.error(problem);
    if (problems.length > 0) process.exit(1);
    console.log('messages: compiled and checked');
  }
  // The inlang SDK leaves a handle open for half a minute after compiling: nothing is left to do.
  process.exit(0);
}
