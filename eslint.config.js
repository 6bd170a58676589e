// ESLint: TypeScript, React hooks and accessibility rules, and the layer rule of
// docs/architecture.md ("Layout") enforced on resolved import paths. Run by `npm test` (lint step).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

/** Browser code: everything the pages load. */
const BROWSER = ['./src/app', './src/islands', './src/lib', './src/stores', './src/platform', './src/components', './src/pages', './src/layouts', './src/sw'];
/** Island features: one does not reach into another's files (shared pieces go to components/, lib/ or shared/). */
const ISLAND_FEATURES = ['account', 'admin', 'auth', 'notifications', 'participant', 'public', 'shell'];

const zones = [
  {
    target: './src/shared',
    from: ['./src/server', ...BROWSER, './builds'],
    message: 'src/shared is used by both sides: it imports neither server nor browser code.',
  },
  { target: './src/server', from: BROWSER, message: 'Server code never imports browser code.' },
  ...BROWSER.map((target) => ({ target, from: ['./src/server'], message: 'Browser code never imports server code (share through src/shared).' })),
  { target: './src', from: ['./builds', './scripts', './tests'], message: 'App code does not import build scripts, scripts or tests.' },
  // Layers of the browser side, bottom up: platform (api, storage, events) ← stores ← lib ← components ← islands ← app (the shell's boot).
  {
    target: './src/platform',
    from: ['./src/stores', './src/lib', './src/components', './src/islands', './src/app'],
    message: 'The platform layer is the bottom: it imports none of the app.',
  },
  {
    target: './src/sw',
    from: BROWSER.filter((layer) => layer !== './src/sw'),
    message: 'The service worker runs apart from the pages: it imports src/shared alone.',
  },
  { target: './src/stores', from: ['./src/lib', './src/components', './src/islands', './src/app'], message: 'Stores sit on the platform layer only.' },
  { target: './src/lib', from: ['./src/components', './src/islands', './src/app'], message: 'lib is below components, islands and the app shell.' },
  { target: './src/components', from: ['./src/islands', './src/app'], message: 'Components are below islands: move the shared piece down.' },
  { target: './src/islands', from: ['./src/app'], message: 'Islands are below the app shell.' },
  ...ISLAND_FEATURES.map((feature) => ({
    target: `./src/islands/${feature}`,
    from: ISLAND_FEATURES.filter((other) => other !== feature).map((other) => `./src/islands/${other}`),
    message: `Islands of "${feature}" do not reach into another feature's files: move the shared piece to src/components or src/lib.`,
  })),
];

/**
 * Tailwind classes that name a physical side (issue 31: Arabic is right to left): use the logical
 * ones (`ms-`/`me-`, `ps-`/`pe-`, `start-`/`end-`, `border-s`/`border-e`, `rounded-s`/`rounded-e`,
 * `text-start`/`text-end`). A physical class that must stay (centring with `left-1/2` and a
 * translation) says why in an eslint-disable comment. The same pattern checks the .astro files
 * (tests/unit/i18n/logical-classes.test.ts).
 */
export const PHYSICAL_CLASS =
  '(^|[\\s:])-?(ml|mr|pl|pr|left|right|border-l|border-r|rounded-l|rounded-r|rounded-tl|rounded-tr|rounded-bl|rounded-br|scroll-ml|scroll-mr|scroll-pl|scroll-pr)-[^\\s]|(^|[\\s:])(text|float|clear)-(left|right)($|\\s)';
const physicalClassMessage = 'A physical side in a class: use the logical one (ms-/me-, ps-/pe-, start-/end-, text-start/text-end) so Arabic mirrors.';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'data/**',
      '.astro/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench-results/**',
      'src/server/db/migrations/**',
      // Compiled messages (scripts/messages.ts).
      'src/paraglide/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=/${PHYSICAL_CLASS}/]`, message: physicalClassMessage },
        { selector: `TemplateElement[value.raw=/${PHYSICAL_CLASS}/]`, message: physicalClassMessage },
      ],
    },
  },
  {
    files: ['src/**/use-*.ts', 'src/lib/**/*.ts', 'src/components/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
