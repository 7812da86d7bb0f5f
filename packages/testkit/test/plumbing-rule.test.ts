/**
 * The ESLint rule in eslint.config.mjs keeps test and dev plumbing in the testkit: in tests,
 * benches and scripts it refuses a hand-written JSON-RPC fetch, a server and a child process,
 * and lets the same code through inside the testkit.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { REPO_ROOT } from '@l2wallet/testkit';

type LintMessage = { ruleId: string | null; severity: number; message: string };

/** The repository's ESLint (its own process: the flat config is an ES module) on `code`. */
async function ruleMessages(file: string, code: string): Promise<string[]> {
  const run = spawnSync(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules/eslint/bin/eslint.js'),
      '--stdin',
      '--stdin-filename',
      file,
      '--format',
      'json',
    ],
    { cwd: REPO_ROOT, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(run.stdout) as { messages: LintMessage[] }[];
  return result.messages
    .filter((message) => /^no-restricted-(syntax|imports)$/.test(message.ruleId ?? ''))
    .map((message) => `${message.severity === 2 ? 'error' : 'warning'}: ${message.message}`);
}

const HAND_WRITTEN = `
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
export async function call(url: string) {
  const server = createServer(() => undefined);
  spawn('redis-server', []);
  server.close();
  return fetch(url, { method: 'POST', body: '{}' });
}
`;

describe('the plumbing rule', () => {
  it.each(['packages/gateway/test/x.test.ts', 'bench/x/index.ts', 'scripts/x.ts'])(
    'refuses hand-written plumbing in %s',
    async (file) => {
      const messages = await ruleMessages(file, HAND_WRITTEN);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^error: 'node:child_process' import is restricted/),
          expect.stringMatching(/^error: 'createServer' import from 'node:http' is restricted/),
          expect.stringMatching(/^error: JSON-RPC over HTTP: use rpc, rpcResponse or postJson/),
        ]),
      );
    },
  );

  it('lets the testkit itself do it', async () => {
    expect(await ruleMessages('packages/testkit/src/x.ts', HAND_WRITTEN)).toEqual([]);
  });
});
