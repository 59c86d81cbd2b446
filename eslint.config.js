import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const sdkPatterns = [
  'agora-rtc-sdk-ng', 'agora-rtc-sdk-ng/*', 'agora-rtm-sdk', 'agora-rtm-sdk/*',
  'nim-web-sdk-ng', 'nim-web-sdk-ng/*', '@mediapipe/*',
];
const storageGlobals = ['localStorage', 'sessionStorage', 'indexedDB', 'caches'].map((name) => ({
  name,
  message: 'Browser storage is reached only through src/adapters/.',
}));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', '.tmp', 'test-results', 'playwright-report', 'server/shell/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The protocol layer: machines reach the world only through ports.
    files: ['machines/**/*.ts'],
    // Tests and the port contract suites (run by tests) may import the test runner.
    ignores: ['machines/**/*.test.ts', 'machines/**/*.contract.ts', 'machines/ports/contract.support.ts', 'machines/testing/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^(?!xstate($|/)|\\.{1,2}/)', message: 'machines/ imports only xstate and other files in machines/.' },
          { regex: '^(\\.\\./){2,}(src|server|tests|node_modules)(/|$)', message: 'machines/ imports only xstate and other files in machines/.' },
        ],
        paths: [{ name: 'xstate', importNames: ['setup'], message: "Machines take setup from machines/setup.ts: it builds a machine on first use (XState's builds it as its module loads)." }],
      }],
      'no-restricted-globals': ['error',
        ...storageGlobals,
        { name: 'window', message: 'Machines never touch the DOM.' },
        { name: 'document', message: 'Machines never touch the DOM.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/adapters/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: sdkPatterns, message: 'Only src/adapters/ imports SDKs.' }],
      }],
      'no-restricted-globals': ['error', ...storageGlobals],
    },
  },
  {
    files: ['src/screens/**/*.{ts,tsx}', 'src/ui/**/*.{ts,tsx}', 'src/routes/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: sdkPatterns, message: 'Only src/adapters/ imports SDKs.' },
          { regex: '(^|/)adapters(/|$)', message: 'Screens never import adapters: read the root actor.' },
        ],
      }],
    },
  },
);
