// ESLint for the whole repository: typescript-eslint with type information, and the server's
// layers as import boundaries (main → app → realtime/jobs/demo → features → channels → core).
import tseslint from 'typescript-eslint';

const SERVER = 'apps/server/src';
const BAILEYS = { group: ['@whiskeysockets/baileys', '@whiskeysockets/baileys/*'], message: 'Baileys and its types stay in channels/whatsapp: the rest of the product speaks the channel contract.' };
const above = (layer, names) => ({ group: names.flatMap((name) => [`**/${name}/**`, `**/${name}.js`]), message: `${layer} must not import what sits above it: the layers point one way (main → app → realtime/jobs/demo → features → channels → core).` });

/** The layers: what each may not import. Tests may reach anything. */
const layers = [
  { files: [`${SERVER}/core/**/*.ts`], forbidden: above('core', ['features', 'channels', 'realtime', 'jobs', 'demo', 'app', 'main']) },
  { files: [`${SERVER}/channels/**/*.ts`], forbidden: above('channels', ['features', 'realtime', 'jobs', 'demo', 'app', 'main']) },
  {
    files: [`${SERVER}/features/**/*.ts`],
    forbidden: above('features', ['realtime', 'jobs', 'demo', 'app', 'main']),
    // Another feature's sub-folders are its own: features use each other's top-level modules.
    extra: [{ regex: '^(\\.\\./|\\.\\./\\.\\./)(?!core/|channels/|\\.)[^/]+/[^/]+/', message: "A feature does not import another feature's internals (its sub-folders)." }],
  },
  { files: [`${SERVER}/{realtime,jobs,demo}/**/*.ts`], forbidden: above('realtime, jobs and demo', ['app', 'main']) },
  // Operations tools (backup, restore) run beside the server, not in it: core only.
  { files: [`${SERVER}/ops/**/*.ts`], forbidden: above('ops', ['features', 'channels', 'realtime', 'jobs', 'demo', 'app', 'main']) },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/web/e2e/artifacts/**', 'test-results/**', 'bench/.data/**', 'bench/results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['apps/server/tsconfig.test.json', 'apps/web/tsconfig.json', 'apps/web/e2e/tsconfig.json', 'bench/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Fire-and-forget is written `void promise` on purpose.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false, arguments: false } }],
      // An async function is how a promise-returning contract (a route handler, an interface's
      // method) is written, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read HTTP and socket answers (typed any by light-my-request) and assert their shape.
    files: ['**/*.test.ts', 'apps/web/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: [`${SERVER}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [BAILEYS] }] } },
  ...layers.map(({ files, forbidden, extra = [] }) => ({
    files,
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [forbidden, ...extra, ...(files[0]?.includes('/channels/') ? [] : [BAILEYS])] }] },
  })),
  { files: [`${SERVER}/channels/**/*.ts`], ignores: ['**/*.test.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [above('channels', ['features', 'realtime', 'jobs', 'demo', 'app', 'main'])] }] } },
  {
    files: [`${SERVER}/channels/**/*.ts`],
    ignores: ['**/*.test.ts', `${SERVER}/channels/whatsapp/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: [above('channels', ['features', 'realtime', 'jobs', 'demo', 'app', 'main']), BAILEYS] }] },
  },
  { files: ['**/*.test.ts'], rules: { 'no-restricted-imports': 'off' } },
);
