/**
 * The home page and the chain methods against a node that misbehaves in every way a real one
 * can: connection refused, reset mid-request, hung, 5xx, not JSON, and JSON of the wrong shape.
 * The node is a real HTTP server on 127.0.0.1 (the testkit's serveHttp); the snap bundle is built
 * with Testnet's node URL carrying an API key in its path, which must never appear in an answer.
 *
 * The accounts are always listed; the page notes what could not be read, naming the host only.
 */
import type { JsonRpcParams } from '@metamask/snaps-sdk';
import { freePort, LOOPBACK, serveHttp, serveSnap, type StubServer } from '@l2wallet/testkit';

import { createGrantedAccount, dialogText, expectedAccount, DEFAULT_SRP } from '../harness/snap';
import { installChainSnap, STRK } from '../harness/devnet';

const builder = require('../harness/build-e2e-snap.cjs') as {
  ensureE2eSnap: (devnetUrl: string, options?: { timeoutMs?: number }) => Promise<string>;
};

/**
 * The snap's node timeout in this file. The node is a local stub that answers at once or never,
 * so 1 s (not the chain tests' 4 s) tells a hung node apart, and the hung case waits 1 s a call.
 */
const NODE_TIMEOUT_MS = 1000;

const KEY = 'sk-live-7f3a9c1e5b2d4f6081a9';

type Mode = 'refused' | 'reset' | 'hung' | '5xx' | 'not JSON' | 'wrong shape';
let mode: Mode = 'reset';

/** Answers as the current mode says; 'wrong shape' answers the version check, then nonsense. */
function misbehave(
  request: { socket: { destroy: () => void } },
  response: {
    writeHead: (
      status: number,
      headers?: Record<string, string>,
    ) => { end: (body?: string) => void };
  },
  body: string,
): void {
  switch (mode) {
    case 'reset':
      request.socket.destroy();
      return;
    case 'hung':
      return;
    case '5xx':
      response.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable');
      return;
    case 'not JSON':
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0",');
      return;
    default: {
      if (!body) {
        // The explorer (same host): a GET for a page it does not have.
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const calls = ([] as { id: number; method: string }[]).concat(JSON.parse(body));
      const answers = calls.map((call) => ({
        jsonrpc: '2.0',
        id: call.id,
        result: call.method === 'starknet_specVersion' ? '0.10.0' : { unexpected: ['zz'] },
      }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers));
    }
  }
}

let port = 0;
let node: StubServer | undefined;
let snapServer: { snapId: string; close: () => Promise<void> } | undefined;

beforeAll(async () => {
  port = await freePort();
  snapServer = await serveSnap(
    await builder.ensureE2eSnap(`http://${LOOPBACK}:${port}/v3/${KEY}`, {
      timeoutMs: NODE_TIMEOUT_MS,
    }),
  );
});

afterAll(async () => {
  await node?.close();
  await snapServer?.close();
});

async function useMode(next: Mode): Promise<void> {
  mode = next;
  if (next === 'refused') {
    await node?.close();
    node = undefined;
  } else {
    node ??= await serveHttp((request, response, body) => misbehave(request, response, body), {
      port,
    });
  }
}

describe.each<Mode>(['refused', 'reset', 'hung', '5xx', 'not JSON', 'wrong shape'])(
  'a node that is %s',
  (faultMode) => {
    it('leaves the accounts listed on the home page, with a note naming the host only', async () => {
      await useMode(faultMode);
      const snap = await installChainSnap((snapServer as { snapId: string }).snapId);
      for (const index of [0, 1]) {
        await createGrantedAccount(snap, index);
      }
      const home = await snap.onHomePage();
      expect('result' in home.response).toBe(true);
      const text = dialogText(home.getInterface().content);
      for (const index of [0, 1]) {
        expect(text).toContain((await expectedAccount(DEFAULT_SRP, index)).address);
      }
      expect(text).toMatch(/The balances could not be read/u);
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('/v3/');

      // A chain method fails with a clear error that names the host, never the URL's path.
      const account = await expectedAccount(DEFAULT_SRP, 0);
      const requests: { method: string; params: JsonRpcParams }[] = [
        {
          method: 'l2_getErc20TokenBalance',
          params: { tokenAddress: STRK, userAddress: account.address },
        },
        { method: 'l2_recoverAccounts', params: { maxScanned: 2, maxMissed: 2 } },
      ];
      for (const request of requests) {
        const { response } = await snap.request(request);
        const serialized = JSON.stringify(response);
        expect(serialized).toMatch(/"error"/u);
        expect(serialized).not.toContain(KEY);
        expect(serialized).not.toContain('/v3/');
        if (faultMode === 'hung') {
          // Given up on at the snap's node timeout, and the error says so.
          expect(serialized).toContain(`no answer within ${NODE_TIMEOUT_MS / 1000} s`);
        }
      }
    });
  },
);
