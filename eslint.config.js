// One lint config for every workspace. Layering rules live here so they are enforced, not advised.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const serverLayers = [
  // Data flows one way on the server: routes → services → store; lib is a leaf.
  { target: './server/src/store', from: './server/src/services', message: 'The store holds SQL only.' },
  { target: './server/src/store', from: './server/src/routes', message: 'The store holds SQL only.' },
  { target: './server/src/services', from: './server/src/routes', message: 'Services never see HTTP.' },
  { target: './server/src/lib', from: './server/src/routes', message: 'lib imports nothing above it.' },
  { target: './server/src/lib', from: './server/src/services', message: 'lib imports nothing above it.' },
  { target: './server/src/lib', from: './server/src/store', message: 'lib imports nothing above it.' },
  {
    target: './server/src/routes',
    from: './server/src/store',
    message: 'Routes reach the store only through services.',
  },
];

const siteLayers = [
  // The site composes features in app/; features never import each other or app/.
  {
    target: './site/src/features/marketing',
    from: './site/src/features/shell',
    message: 'Features are independent.',
  },
  {
    target: './site/src/features/shell',
    from: './site/src/features/marketing',
    message: 'Features are independent.',
  },
  { target: './site/src/features', from: './site/src/app', message: 'Features never import app/.' },
  { target: './site/src/lib', from: './site/src/features', message: 'lib imports nothing above it.' },
  {
    target: './site/src/components',
    from: './site/src/features',
    message: 'Shared components stay generic.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'bench/results/**',
      'bench/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { zones: [...serverLayers, ...siteLayers] }],
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
  {
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
);
