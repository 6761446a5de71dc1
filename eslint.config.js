// One lint config for every workspace. Layering rules live here so they are enforced, not advised.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Layering, enforced (not advised): each entry forbids a folder to import what sits above it.
const layers = [
  // Data flows one way on the server: routes → services → store; lib is a leaf. platform/ (the composition
  // root) may import anything but cli/; cli/ (the operator CLI, entered by cli.ts) builds on platform/ and
  // services, and nothing imports it; test-support/ is for tests only (see serverLayerRules).
  {
    files: 'server/src/store/**',
    forbid: ['services', 'routes', 'realtime', 'platform', 'cli'],
    message: 'The store holds SQL only.',
  },
  {
    files: 'server/src/services/**',
    forbid: ['routes', 'platform', 'cli'],
    // Sockets reach services as realtime/'s RoomMembers (id and handshake state), never socket.io objects.
    packages: ['socket.io', 'socket.io/*'],
    message: 'Services never see HTTP or socket.io objects.',
  },
  {
    files: 'server/src/routes/**',
    forbid: ['store', 'platform', 'cli'],
    message: 'Routes reach the store only through services.',
  },
  {
    files: 'server/src/project/**',
    forbid: ['services', 'routes', 'store', 'realtime', 'platform', 'cli'],
    message: 'project/ reads the app project (entities, integrations, inference): a leaf services build on.',
  },
  {
    files: 'server/src/realtime/**',
    forbid: ['services', 'routes', 'store', 'rules', 'platform', 'cli'],
    message: 'realtime/ is the socket transport: it knows nothing of entities, rules or HTTP routes.',
  },
  {
    files: 'server/src/rules/**',
    forbid: ['services', 'routes', 'store', 'realtime', 'platform', 'cli'],
    message: 'The rule language imports only lib/: store and services both build on it.',
  },
  {
    files: 'server/src/config/**',
    forbid: ['services', 'routes', 'store', 'realtime', 'platform', 'cli'],
    message: 'config/ parses the environment; it builds nothing.',
  },
  {
    files: 'server/src/lib/**',
    forbid: ['routes', 'services', 'store', 'realtime', 'rules', 'config', 'platform', 'cli'],
    message: 'lib imports nothing above it.',
  },
  {
    files: 'server/src/platform/**',
    forbid: ['cli'],
    message: 'platform/ composes the server; the CLI builds on it, not the other way.',
  },
  // The operator CLI talks to a running server over HTTP (cli/admin-client.ts), else builds the services the
  // API routes call (cli/offline-services.ts); its commands reach the database only through those services.
  {
    files: 'server/src/cli/**',
    forbid: ['routes', 'realtime'],
    message: 'The CLI reaches a running server over HTTP, never through its routes or sockets.',
  },
  // After cli/** on purpose: for a command file this entry's list (a superset) is the one that applies.
  {
    files: 'server/src/cli/commands/**',
    forbid: ['store', 'routes', 'realtime'],
    message:
      'Commands reach the database through cli/offline-services.ts, as the API routes do through services.',
  },
  // The site composes features in app/; features never import each other or app/.
  {
    files: 'site/src/features/marketing/**',
    forbid: ['shell', 'login', 'console', 'app'],
    message: 'Features are independent.',
  },
  {
    files: 'site/src/features/shell/**',
    forbid: ['marketing', 'login', 'console', 'app'],
    message: 'Features are independent.',
  },
  {
    files: 'site/src/features/login/**',
    forbid: ['marketing', 'shell', 'console', 'app'],
    message: 'Features are independent.',
  },
  {
    files: 'site/src/features/console/**',
    forbid: ['marketing', 'shell', 'login', 'app'],
    message: 'Features are independent.',
  },
  { files: 'site/src/lib/**', forbid: ['features', 'app'], message: 'lib imports nothing above it.' },
  {
    files: 'site/src/components/**',
    forbid: ['features', 'app'],
    message: 'Shared components stay generic.',
  },
];

const groupOf = (names) => names.flatMap((name) => [`**/${name}/**`, `**/${name}`]);
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const testSupportOnlyInTests = {
  group: groupOf(['test-support']),
  message: 'test-support/ is for tests only.',
};

// Server code outside tests may not import test-support/ either; tests keep their folder's layer rule.
const layerRules = layers.flatMap(({ files, forbid, packages = [], message }) => {
  const pattern = `${files.replace(/\*\*$/, '')}**/*.{ts,tsx}`;
  const layer = { group: [...groupOf(forbid), ...packages], message };
  if (!files.startsWith('server/')) return [{ files: [pattern], rules: restrictImports(layer) }];
  return [
    { files: [pattern], ignores: ['**/*.test.ts'], rules: restrictImports(layer, testSupportOnlyInTests) },
    { files: [pattern.replace('*.{ts,tsx}', '*.test.ts')], rules: restrictImports(layer) },
  ];
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/.cache/**',
      'bench/.cache/**',
      // Deno programs (Deno globals, `npm:` specifiers; one does not compile on purpose).
      'e2e/fixtures/functions/**',
      // An app repository's code that `entities infer` parses (JSX, Deno); never built or run.
      'e2e/fixtures/inferred-app/**',
      'bench/results/**',
      'bench/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['site/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...layerRules,
  {
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
