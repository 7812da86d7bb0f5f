import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.cache/**',
      '**/public/**',
      '**/coverage/**',
      '**/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser, ...globals.jest },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Test and dev plumbing has one home, packages/testkit: tests, benches and scripts start
    // processes, servers and JSON-RPC calls through it, never by hand.
    files: ['packages/*/test/**', 'bench/**', 'scripts/**'],
    ignores: ['packages/testkit/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...['child_process', 'node:child_process'].map((name) => ({
              name,
              message:
                'Start processes with @l2wallet/testkit (spawnService, runCommand, startAnvil, startRedis, ...).',
            })),
            ...['http', 'node:http', 'net', 'node:net'].map((name) => ({
              name,
              importNames: ['createServer'],
              message:
                'Serve with @l2wallet/testkit (serveDirectory, serveHttp, serveSilent, ...).',
            })),
            { name: '@l2wallet/localstack', message: 'localstack became @l2wallet/testkit.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.name='fetch'] > ObjectExpression > Property[key.name='method'][value.value='POST']",
          message: 'JSON-RPC over HTTP: use rpc, rpcResponse or postJson from @l2wallet/testkit.',
        },
        {
          selector: "CallExpression[callee.property.name='createServer']",
          message: 'Serve with @l2wallet/testkit (serveDirectory, serveHttp, serveSilent, ...).',
        },
        {
          selector:
            "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?child_process$/]",
          message: 'Start processes with @l2wallet/testkit.',
        },
      ],
    },
  },
);
