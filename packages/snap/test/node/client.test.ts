/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * Unit tests of the pure chain modules: fee mapping, status mapping, ABI decoding for dialogs,
 * explorer item parsing, and the JSON-RPC client (batches, node errors, dead and silent nodes)
 * against small local HTTP servers.
 */
import { serveHttp, STRK_TOKEN, type StubServer } from '@l2wallet/testkit';

import { decodeCall } from '../../src/starknet/abi';
import { abiString } from '../../src/starknet/transaction';
import {
  boundsFromEstimate,
  boundsWithinMaxFee,
  deployAndInvokeWithinMaxFee,
  maxChargeOf,
  MaxFeeTooLowError,
  maxFeeOfBounds,
  parseFeeEstimate,
  toFeeEstimateResult,
} from '../../src/starknet/fees';
import { formatStrk } from '../../src/starknet/units';
import {
  ExplorerClient,
  parseExplorerItem,
  readExplorerPages,
  type ExplorerTransaction,
} from '../../src/node/explorer';
import { toChainError } from '../../src/node/errors';
import { withNextNonce } from '../../src/node/nonces';
import { RpcClient, StarknetRpcError } from '../../src/node/client';
import { decodeExecuteCalldata, mergeNewerRecord } from '../../src/starknet/records';
import { EVENTS_PER_BATCH, resolveRecords } from '../../src/node/transactions';
import { byteArray, hash, shortString } from 'starknet';
import { decodeTokenText } from '../../src/starknet/tokens';
import { advanceStatus, mapNodeStatus, mergeStatus } from '../../src/starknet/status';
import type { TransactionRecord } from '../../src/state/schema';

const ESTIMATE = {
  l1_gas_consumed: '0x0',
  l1_gas_price: '0x3b9aca00',
  l1_data_gas_consumed: '0x80',
  l1_data_gas_price: '0x3e8',
  l2_gas_consumed: '0x5c2f0',
  l2_gas_price: '0xee6b2800',
  overall_fee: '0x55b5d4c7a000',
  unit: 'FRI',
};

describe('fees', () => {
  it('maps a node estimate to the fee estimate in base-10 strings', () => {
    const estimate = parseFeeEstimate(ESTIMATE);
    const result = toFeeEstimateResult([estimate]);
    const consumed = 0x80n + 0x5c2f0n;
    expect(result).toEqual({
      overallFee: BigInt(ESTIMATE.overall_fee).toString(10),
      gasConsumed: consumed.toString(10),
      gasPrice: (BigInt(ESTIMATE.overall_fee) / consumed).toString(10),
      suggestedMaxFee: maxFeeOfBounds(boundsFromEstimate(estimate)).toString(10),
      unit: 'wei',
    });
    // 50% on amounts and on prices: 2.25x the consumed cost of each resource.
    const bounds = boundsFromEstimate(estimate);
    expect(bounds.l2_gas).toEqual({
      max_amount: 0x5c2f0n + 0x5c2f0n / 2n,
      max_price_per_unit: 0xee6b2800n + 0xee6b2800n / 2n,
    });
  });

  it('defaults gasConsumed and gasPrice to 0', () => {
    const result = toFeeEstimateResult([parseFeeEstimate({ overall_fee: '0x0' })]);
    expect(result.gasConsumed).toBe('0');
    expect(result.gasPrice).toBe('0');
  });

  it('adds deploy and invoke estimates', () => {
    const one = parseFeeEstimate(ESTIMATE);
    const result = toFeeEstimateResult([one, one]);
    expect(BigInt(result.overallFee)).toBe(2n * BigInt(ESTIMATE.overall_fee));
    expect(BigInt(result.suggestedMaxFee)).toBe(2n * maxFeeOfBounds(boundsFromEstimate(one)));
  });

  it('keeps the signed bounds within maxFee, and refuses a maxFee below the estimate', () => {
    const estimate = parseFeeEstimate(ESTIMATE);
    const maxFee = (estimate.overall_fee * 12n) / 10n;
    expect(maxFeeOfBounds(boundsWithinMaxFee(estimate, maxFee))).toBeLessThanOrEqual(maxFee);
    const roomy = maxFeeOfBounds(boundsFromEstimate(estimate)) * 2n;
    expect(boundsWithinMaxFee(estimate, roomy)).toEqual(boundsFromEstimate(estimate));
    expect(() => boundsWithinMaxFee(estimate, estimate.overall_fee - 1n)).toThrow(
      MaxFeeTooLowError,
    );
  });

  /** An estimate whose overall_fee is what its resources cost (as a node computes it). */
  function consistent(raw: Record<string, string>) {
    const estimate = parseFeeEstimate(raw);
    estimate.overall_fee =
      estimate.l1_gas_consumed * estimate.l1_gas_price +
      estimate.l1_data_gas_consumed * estimate.l1_data_gas_price +
      estimate.l2_gas_consumed * estimate.l2_gas_price;
    return estimate;
  }

  it('counts the tip within maxFee', () => {
    const estimate = consistent(ESTIMATE);
    const tip = estimate.l2_gas_price / 10n;
    const maxFee = (estimate.overall_fee * 12n) / 10n + tip * estimate.l2_gas_consumed;
    const bounds = boundsWithinMaxFee(estimate, maxFee, tip);
    expect(maxChargeOf(bounds, tip)).toBeLessThanOrEqual(maxFee);
    expect(bounds.l2_gas.max_amount).toBeGreaterThanOrEqual(estimate.l2_gas_consumed);
    // The margined bounds are kept only when they fit with the tip.
    const margined = boundsFromEstimate(estimate);
    const exact = maxChargeOf(margined, tip);
    expect(boundsWithinMaxFee(estimate, exact, tip)).toEqual(margined);
    expect(maxChargeOf(boundsWithinMaxFee(estimate, exact - 1n, tip), tip)).toBeLessThan(exact);
    expect(() =>
      boundsWithinMaxFee(estimate, estimate.overall_fee + tip * estimate.l2_gas_consumed - 1n, tip),
    ).toThrow(MaxFeeTooLowError);
  });

  it('fits deploy and invoke into maxFee without the deploy margins', () => {
    const deploy = consistent(ESTIMATE);
    const invoke = consistent({ ...ESTIMATE, l2_gas_consumed: '0x2e178' });
    const tip = 5n;
    for (const maxFee of [
      deploy.overall_fee + invoke.overall_fee + tip * invoke.l2_gas_consumed,
      ((deploy.overall_fee + invoke.overall_fee) * 12n) / 10n,
      maxFeeOfBounds(boundsFromEstimate(deploy)),
    ]) {
      const { deployBounds, invokeBounds } = deployAndInvokeWithinMaxFee(
        deploy,
        invoke,
        maxFee,
        tip,
      );
      expect(maxChargeOf(deployBounds, 0n) + maxChargeOf(invokeBounds, tip)).toBeLessThanOrEqual(
        maxFee,
      );
      expect(deployBounds.l2_gas.max_amount).toBeGreaterThanOrEqual(deploy.l2_gas_consumed);
      expect(invokeBounds.l2_gas.max_amount).toBeGreaterThanOrEqual(invoke.l2_gas_consumed);
    }
    const roomy = maxFeeOfBounds(boundsFromEstimate(deploy)) * 10n;
    expect(deployAndInvokeWithinMaxFee(deploy, invoke, roomy, tip)).toEqual({
      deployBounds: boundsFromEstimate(deploy),
      invokeBounds: boundsFromEstimate(invoke),
    });
    expect(() =>
      deployAndInvokeWithinMaxFee(deploy, invoke, deploy.overall_fee + invoke.overall_fee - 1n),
    ).toThrow(MaxFeeTooLowError);
  });

  it('formats FRI as STRK', () => {
    expect(formatStrk(10n ** 18n)).toBe('1 STRK');
    expect(formatStrk(1500000000000000000n)).toBe('1.5 STRK');
    expect(formatStrk(1n)).toBe('0.000000000000000001 STRK');
  });
});

describe('status mapping', () => {
  it.each([
    [{ finality_status: 'RECEIVED' }, 'RECEIVED', null],
    [{ finality_status: 'CANDIDATE' }, 'RECEIVED', null],
    [{ finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' }, 'PENDING', null],
    [{ finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' }, 'ACCEPTED_ON_L2', null],
    [{ finality_status: 'ACCEPTED_ON_L1', execution_status: 'SUCCEEDED' }, 'ACCEPTED_ON_L2', null],
    [
      { finality_status: 'ACCEPTED_ON_L2', execution_status: 'REVERTED', failure_reason: 'boom' },
      'REJECTED',
      'boom',
    ],
    [
      { finality_status: 'PRE_CONFIRMED', execution_status: 'REVERTED' },
      'REJECTED',
      'Transaction reverted',
    ],
  ])('maps %j to %s', (node, status, failureReason) => {
    expect(mapNodeStatus(node)).toEqual({ status, failureReason });
  });

  it('never moves a status backwards', () => {
    expect(advanceStatus('ACCEPTED_ON_L2', 'PENDING')).toBe('ACCEPTED_ON_L2');
    expect(advanceStatus('RECEIVED', 'PENDING')).toBe('PENDING');
    expect(advanceStatus('PENDING', 'REJECTED')).toBe('REJECTED');
    expect(advanceStatus(undefined, 'RECEIVED')).toBe('RECEIVED');
  });

  it('keeps final statuses: ACCEPTED_ON_L2 and REJECTED never replace each other', () => {
    expect(advanceStatus('ACCEPTED_ON_L2', 'REJECTED')).toBe('ACCEPTED_ON_L2');
    expect(advanceStatus('REJECTED', 'ACCEPTED_ON_L2')).toBe('REJECTED');
    expect(advanceStatus('REJECTED', 'RECEIVED')).toBe('REJECTED');
    expect(
      mergeStatus(
        { status: 'REJECTED', failureReason: 'boom' },
        { status: 'ACCEPTED_ON_L2', failureReason: null },
      ),
    ).toEqual({ status: 'REJECTED', failureReason: 'boom' });
    expect(
      mergeStatus(
        { status: 'ACCEPTED_ON_L2', failureReason: null },
        { status: 'REJECTED', failureReason: 'late' },
      ),
    ).toEqual({ status: 'ACCEPTED_ON_L2', failureReason: null });
  });

  it('has a failureReason only for REJECTED', () => {
    expect(
      mergeStatus(
        { status: 'RECEIVED', failureReason: 'stale reason' },
        { status: 'ACCEPTED_ON_L2', failureReason: null },
      ),
    ).toEqual({ status: 'ACCEPTED_ON_L2', failureReason: null });
    expect(
      mergeStatus(
        { status: 'PENDING', failureReason: null },
        { status: 'REJECTED', failureReason: 'out of gas' },
      ),
    ).toEqual({ status: 'REJECTED', failureReason: 'out of gas' });
  });

  it('merges an explorer item into a stored record without stepping the status back', () => {
    const stored: TransactionRecord = {
      txnHash: '0xabc',
      txnType: 'invoke',
      senderAddress: '0x1',
      contractAddress: '0x2',
      contractFuncName: 'transfer',
      contractCallData: [],
      status: 'REJECTED',
      failureReason: 'boom',
      eventIds: [],
      timestamp: 100,
      chainId: '0x534e5f5345504f4c4941',
    };
    const stale = { ...stored, status: 'PENDING', failureReason: null, timestamp: 0 };
    expect(mergeNewerRecord(stored, stale)).toEqual(stored);
    const accepted = { ...stored, status: 'ACCEPTED_ON_L2', failureReason: null };
    expect(mergeNewerRecord({ ...accepted, status: 'RECEIVED' }, accepted).status).toBe(
      'ACCEPTED_ON_L2',
    );
    const rejectedNoReason = { ...stored, failureReason: null, contractFuncName: '' };
    expect(mergeNewerRecord(stored, rejectedNoReason)).toEqual(stored);
    expect(mergeNewerRecord({ ...stored, status: 'ACCEPTED_ON_L2' }, stale).status).toBe(
      'ACCEPTED_ON_L2',
    );
  });
});

describe('nonce tracking', () => {
  const ok = async (nonce: bigint) => nonce;

  it('keeps the last submitted nonce when a later submission fails', async () => {
    const send = async (chainNonce: bigint, submit: (nonce: bigint) => Promise<bigint>) =>
      withNextNonce('0xtest', '0xabc1', async () => chainNonce, submit);
    expect(await send(0n, ok)).toBe(0n);
    // Nonce 0 is sent but not yet visible; the next send fails for another reason.
    await expect(
      send(0n, async () => {
        throw new Error('connection reset');
      }),
    ).rejects.toThrow('connection reset');
    // The pending nonce 0 is still remembered: the next send uses 1, not 0.
    expect(await send(0n, ok)).toBe(1n);
  });

  it('re-syncs with the chain only on an invalid nonce (error 52)', async () => {
    const send = async (chainNonce: bigint, submit: (nonce: bigint) => Promise<bigint>) =>
      withNextNonce('0xtest', '0xabc2', async () => chainNonce, submit);
    expect(await send(3n, ok)).toBe(3n);
    expect(await send(3n, ok)).toBe(4n);
    await expect(
      send(3n, async () => {
        throw toChainError(new StarknetRpcError(52, 'Invalid transaction nonce'), 'Transaction');
      }),
    ).rejects.toThrow(/invalid transaction nonce/u);
    expect(await send(3n, ok)).toBe(3n);
    expect(await send(3n, ok)).toBe(4n);
    await expect(
      send(3n, async () => {
        throw new StarknetRpcError(52, 'Invalid transaction nonce');
      }),
    ).rejects.toBeInstanceOf(StarknetRpcError);
    expect(await send(3n, ok)).toBe(3n);
  });
});

describe('ABI decoding for the dialog', () => {
  const abi = [
    {
      type: 'interface',
      name: 'IERC20',
      items: [
        {
          type: 'function',
          name: 'transfer',
          inputs: [
            { name: 'recipient', type: 'core::starknet::contract_address::ContractAddress' },
            { name: 'amount', type: 'core::integer::u256' },
          ],
          outputs: [],
          state_mutability: 'external',
        },
      ],
    },
  ];
  const call = {
    contractAddress: '0x1',
    entrypoint: 'transfer',
    calldata: ['0x123', '0x5', '0x0'],
  };

  it('names and decodes the arguments (ABI, list of ABIs, or map by address)', () => {
    for (const abis of [abi, [abi], { '0x0001': abi }]) {
      const decoded = decodeCall(call, abis);
      expect(decoded.decoded).toBe(true);
      // A dapp's abis: the dialog labels the names as the site's.
      expect(decoded.namesFrom).toBe('site');
      expect(decodeCall(call, abis, 'chain').namesFrom).toBe('chain');
      expect(decoded.args).toEqual([
        { label: 'recipient (ContractAddress)', value: `0x${'0'.repeat(61)}123` },
        { label: 'amount (u256)', value: '5' },
      ]);
    }
  });

  it('shows raw calldata when the ABI does not fit or is missing', () => {
    const extra = decodeCall({ ...call, calldata: [...call.calldata, '0x9'] }, abi);
    expect(extra.decoded).toBe(false);
    expect(extra.args).toHaveLength(4);
    expect(decodeCall(call, undefined).args[0]).toEqual({ label: 'calldata[0]', value: '0x123' });
    expect(decodeCall(call, { '0x2': abi }).decoded).toBe(false);
  });

  it('formats a Sierra ABI as starknet.js hashes it', () => {
    expect(abiString([{ type: 'function', name: 'a,b:c', inputs: [] }])).toBe(
      '[{"type": "function", "name": "a,b:c", "inputs": []}]',
    );
  });
});

describe('explorer items', () => {
  it('maps the devnet explorer shape', () => {
    const item = parseExplorerItem({
      hash: '0xabc',
      type: 'INVOKE',
      sender: '0x1',
      contract: '0x2',
      entrypoint: 'transfer',
      calls: [
        { contract: '0x2', entrypoint: 'transfer', calldata: ['0x5'] },
        { contract: '0x3', entrypoint: 'approve', calldata: [] },
      ],
      calldata: ['0x2'],
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
      failureReason: 'nope',
      timestamp: 1700000000,
    });
    expect(item).toEqual({
      hash: '0xabc',
      type: 'INVOKE',
      sender: '0x1',
      contract: '0x2',
      entryPoint: 'transfer,approve',
      calldata: ['0x5'],
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
      failureReason: 'nope',
      timestamp: 1700000000,
    });
    expect(parseExplorerItem({ type: 'INVOKE' })).toBeUndefined();
  });
});

describe('RpcClient', () => {
  let server: StubServer;
  let url: string;
  let requests = 0;
  /** The stalled body's rest, sent far past the client's timeout unless cleared before. */
  let stallGuard: NodeJS.Timeout | undefined;
  let stallEnded = false;

  beforeAll(async () => {
    server = await serveHttp((req, res, body) => {
      requests += 1;
      if (req.url === '/silent') {
        return;
      }
      const http = /^\/http-(\d+)-(\w+)$/u.exec(req.url ?? '');
      if (http) {
        const bodies: Record<string, string> = {
          gateway: '{"error":"Unauthorized"}',
          html: '<html>Too Many Requests</html>',
          empty: '',
          jsonrpc: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            error: { code: 52, message: 'Invalid transaction nonce' },
          }),
        };
        res.writeHead(Number(http[1]), { 'content-type': 'text/plain' });
        res.end(bodies[http[2]]);
        return;
      }
      if (req.url === '/headers-then-stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        res.write('{"jsonrpc":"2.0",');
        stallGuard = setTimeout(() => {
          stallEnded = true;
          res.end('"id":1,"result":"late"}');
        }, 3_000);
        return;
      }
      const payload = JSON.parse(body) as
        { id: number; method: string } | { id: number; method: string }[];
      const answer = (call: { id: number; method: string }) =>
        call.method === 'starknet_specVersion'
          ? { jsonrpc: '2.0', id: call.id, result: req.url === '/v0_8' ? '0.8.1' : '0.9.0' }
          : call.method === 'fail'
            ? {
                jsonrpc: '2.0',
                id: call.id,
                error: { code: 52, message: 'Invalid transaction nonce', data: 'x' },
              }
            : { jsonrpc: '2.0', id: call.id, result: call.method };
      const out = Array.isArray(payload) ? [...payload].reverse().map(answer) : answer(payload);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
    url = server.url;
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends a batch in one round trip and returns results in call order', async () => {
    const client = new RpcClient(url);
    const before = requests;
    const results = await client.batch([{ method: 'a' }, { method: 'fail' }, { method: 'c' }]);
    expect(requests - before).toBe(1);
    expect(results[0]).toEqual({ ok: true, result: 'a' });
    expect(results[1].ok).toBe(false);
    expect(!results[1].ok && results[1].error.code).toBe(52);
    expect(results[2]).toEqual({ ok: true, result: 'c' });
  });

  it('checks the node version once, riding along with the first read', async () => {
    const client = new RpcClient(url);
    const before = requests;
    expect(await client.request('a')).toBe('a');
    expect(await client.request('b')).toBe('b');
    expect(requests - before).toBe(2);
    expect(await client.specSupport()).toEqual({ version: '0.9.0', eventAddressList: false });
    expect(requests - before).toBe(2);
  });

  it('refuses an unsupported version on every call, naming the versions', async () => {
    const client = new RpcClient(`${url}/v0_8`);
    for (const call of [() => client.request('a'), () => client.batch([{ method: 'b' }])]) {
      const error = (await call().catch((caught: unknown) => caught)) as {
        code: number;
        message: string;
        data: { retryable: boolean; specVersion: string };
      };
      expect(error.code).toBe(-32002);
      expect(error.message).toMatch(/JSON-RPC 0\.8\.1.*0\.9\.x and 0\.10\.x/u);
      expect(error.data).toMatchObject({ retryable: false, specVersion: '0.8.1' });
    }
  });

  it('throws node errors as StarknetRpcError', async () => {
    await expect(new RpcClient(url).request('fail')).rejects.toBeInstanceOf(StarknetRpcError);
  });

  it('reports a dead node as a retryable -32002 that names only the host', async () => {
    const dead = new RpcClient('http://127.0.0.1:9/rpc/secret-api-key');
    const error = (await dead.request('x').catch((caught: unknown) => caught)) as {
      code: number;
      message: string;
      data: { retryable: boolean };
    };
    expect(error.code).toBe(-32002);
    expect(error.message).toContain('127.0.0.1:9');
    expect(error.message).not.toContain('secret-api-key');
    expect(error.data.retryable).toBe(true);
  });

  it('times out a node that never answers', async () => {
    const silent = new RpcClient(`${url}/silent`, { timeoutMs: 300 });
    const error = (await silent.request('x').catch((caught: unknown) => caught)) as {
      code: number;
      message: string;
    };
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/no answer within/u);
  });

  it('times out a node that sends its headers and then stalls the body', async () => {
    const stalling = new RpcClient(`${url}/headers-then-stall`, { timeoutMs: 300 });
    const error = (await stalling.request('x').catch((caught: unknown) => caught)) as {
      code: number;
      message: string;
      data: { retryable: boolean; timedOut: boolean };
    };
    // Failed while the body was still stalled: the guard (10x the timeout, a timer of this same
    // process, so it cannot fire first) had not sent the rest.
    clearTimeout(stallGuard);
    expect(stallEnded).toBe(false);
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/no answer within 0\.3 s/u);
    expect(error.data).toMatchObject({ retryable: true, timedOut: true });
  });

  it.each([
    ['401-gateway', 401, false],
    ['403-html', 403, false],
    ['429-html', 429, true],
    ['429-gateway', 429, true],
    ['503-empty', 503, true],
    ['502-gateway', 502, true],
  ])(
    'reports HTTP %s without a JSON-RPC error as -32002 naming the status',
    async (path, status, retryable) => {
      const client = new RpcClient(`${url}/http-${path}`);
      for (const call of [() => client.request('x'), () => client.batch([{ method: 'x' }])]) {
        const error = (await call().catch((caught: unknown) => caught)) as {
          code: number;
          message: string;
          data: { retryable: boolean };
        };
        expect(error.code).toBe(-32002);
        expect(error.message).toContain(`HTTP ${status}`);
        expect(error.message).not.toMatch(/undefined/u);
        expect(error.data.retryable).toBe(retryable);
      }
    },
  );

  it('still reports a JSON-RPC error carried by an HTTP error status', async () => {
    const error = await new RpcClient(`${url}/http-500-jsonrpc`)
      .request('x')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StarknetRpcError);
    expect((error as StarknetRpcError).code).toBe(52);
  });
});

describe('explorer client and paging', () => {
  let server: StubServer;
  let base: string;

  beforeAll(async () => {
    server = await serveHttp((req, res) => {
      const status = Number(/^\/(\d{3})\//u.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? '{"items":[]}' : 'nope');
    });
    base = server.url;
  });

  afterAll(async () => {
    await server.close();
  });

  it.each([
    [403, false],
    [404, false],
    [429, true],
    [503, true],
  ])('names the explorer, not the node, for HTTP %s (retryable %s)', async (status, retryable) => {
    const error = (await new ExplorerClient(`${base}/${status}/key`)
      .listTransactions('0x1', 10)
      .catch((caught: unknown) => caught)) as {
      code: number;
      message: string;
      data: { retryable: boolean };
    };
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/^The Starknet explorer \(127\.0\.0\.1:\d+\) is unavailable/u);
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).not.toMatch(/node|\/key/u);
    expect(error.data.retryable).toBe(retryable);
  });

  it('names the explorer when it cannot be reached', async () => {
    const error = (await new ExplorerClient('http://127.0.0.1:9/secret')
      .listTransactions('0x1', 10)
      .catch((caught: unknown) => caught)) as { code: number; message: string };
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/Starknet explorer \(127\.0\.0\.1:9\) is unavailable/u);
    expect(error.message).not.toContain('secret');
  });

  it('keeps paging past an item without a timestamp', async () => {
    const now = 2_000_000_000;
    const item = (hash: string, timestamp: number): ExplorerTransaction => ({
      hash,
      type: 'INVOKE',
      sender: '0x1',
      contract: '0x2',
      entryPoint: 'transfer',
      calldata: [],
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'SUCCEEDED',
      failureReason: null,
      timestamp,
    });
    const pages = [
      { items: [item('0xa', now), item('0xb', 0)], hasMore: true },
      { items: [item('0xc', now - 10), item('0xd', 5)], hasMore: true },
      { items: [item('0xe', now)], hasMore: false },
    ];
    const seen: string[] = [];
    const read = await readExplorerPages(
      async (page) => pages[page - 1],
      now - 100,
      20,
      (visited) => seen.push(visited.hash),
    );
    expect(read).toBe(2);
    expect(seen).toEqual(['0xa', '0xb', '0xc']);
  });
});

describe('history records from the node', () => {
  const ACCOUNT = '0x123';
  // STRK as a node writes felts: no leading zero.
  const TOKEN = STRK_TOKEN.replace(/^0x0/u, '0x');
  const TRANSFER = hash.getSelectorFromName('transfer');

  it('decodes Cairo 1 __execute__ calldata, and nothing from another layout', () => {
    expect(
      decodeExecuteCalldata([
        '0x2',
        TOKEN,
        TRANSFER,
        '0x3',
        '0x9',
        '0x5',
        '0x0',
        '0x7',
        '0x1',
        '0x0',
      ]),
    ).toEqual([
      { to: TOKEN, selector: TRANSFER, calldata: ['0x9', '0x5', '0x0'] },
      { to: '0x7', selector: '0x1', calldata: [] },
    ]);
    expect(decodeExecuteCalldata(['0x1', TOKEN, TRANSFER, '0x5', '0x1'])).toEqual([]);
    expect(decodeExecuteCalldata([])).toEqual([]);
  });

  it('resolves many events in batches of bounded size, records in event order', async () => {
    // A stub node on loopback (answers shaped as JSON-RPC 0.10's): more transactions than the
    // end-to-end chains hold, to see the batches split. The devnet tests cover the real answers.
    const batchSizes: number[] = [];
    const server = await serveHttp((req, res, body) => {
      const calls = JSON.parse(body) as {
        id: number;
        method: string;
        params: { transaction_hash: string; block_id: { block_number: number } };
      }[];
      batchSizes.push(calls.length);
      const answer = (call: (typeof calls)[number]) => {
        const block = (txHash: string) => Number(BigInt(txHash) % 7n);
        switch (call.method) {
          case 'starknet_specVersion':
            return '0.10.0';
          case 'starknet_getTransactionByHash':
            return {
              type: 'INVOKE',
              sender_address: ACCOUNT,
              calldata: ['0x1', TOKEN, TRANSFER, '0x3', '0x9', call.params.transaction_hash, '0x0'],
            };
          case 'starknet_getTransactionReceipt':
            return {
              finality_status: 'ACCEPTED_ON_L2',
              execution_status: 'SUCCEEDED',
              block_number: block(call.params.transaction_hash),
              events: [{}, {}],
            };
          default:
            return {
              block_number: call.params.block_id.block_number,
              timestamp: 1_000 + call.params.block_id.block_number,
            };
        }
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: answer(call) })),
        ),
      );
    });
    try {
      const rpc = new RpcClient(server.url);
      const events = Array.from({ length: 2 * EVENTS_PER_BATCH + 10 }, (_, index) => ({
        transactionHash: `0x${(index + 1).toString(16)}`,
        blockNumber: (index + 1) % 7,
        token: TOKEN,
        sent: true,
      }));
      const records = await resolveRecords(rpc, '0x999', ACCOUNT, events);
      expect(records.map((record) => record.txnHash)).toEqual(
        events.map((event) => event.transactionHash),
      );
      expect(batchSizes).toHaveLength(3);
      expect(Math.max(...batchSizes)).toBeLessThanOrEqual(3 * EVENTS_PER_BATCH + 1);
      expect(records[4]).toMatchObject({
        txnType: 'invoke',
        contractFuncName: 'transfer',
        contractCallData: ['0x9', '0x5', '0x0'],
        status: 'ACCEPTED_ON_L2',
        failureReason: null,
        eventIds: ['0x5_0', '0x5_1'],
        timestamp: 1_000 + (5 % 7),
        chainId: '0x999',
      });
      expect(BigInt(records[4].contractAddress)).toBe(BigInt(TOKEN));
    } finally {
      await server.close();
    }
  });
});

describe('token names and symbols as contracts return them (chain/tokens.ts)', () => {
  const felts = (values: (string | number | bigint)[]): string[] =>
    values.map((value) => `0x${BigInt(value).toString(16)}`);

  it('reads a felt short string (ETH, STRK) and a ByteArray (OpenZeppelin), as starknet.js encodes them', () => {
    expect(decodeTokenText(felts([shortString.encodeShortString('STRK')]))).toBe('STRK');
    for (const text of ['USDC', 'a token name longer than thirty-one bytes, in two words+']) {
      const encoded = byteArray.byteArrayFromString(text);
      expect(
        decodeTokenText(
          felts([
            encoded.data.length,
            ...encoded.data.map((word) => BigInt(word)),
            BigInt(encoded.pending_word),
            encoded.pending_word_len,
          ]),
        ),
      ).toBe(text);
    }
  });

  it('reads UTF-8, and refuses what is not text', () => {
    const bytes = Buffer.from('€URO', 'utf8'); // 6 bytes, in the pending word
    expect(decodeTokenText(felts([0, `0x${bytes.toString('hex')}`, bytes.length]))).toBe('€URO');
    expect(decodeTokenText(felts(['0xff']))).toBeUndefined(); // not UTF-8
    expect(decodeTokenText(felts([2, 1, 2]))).toBeUndefined(); // length does not match
    expect(decodeTokenText(felts([0, 1, 31]))).toBeUndefined(); // pending word too long
    expect(decodeTokenText(['USDC'])).toBeUndefined(); // not a felt
    expect(decodeTokenText('0x1')).toBeUndefined();
  });
});
