/**
 * SNIP-29 over JSON-RPC as clients meet it: the spec's error codes and messages for each refusal
 * (with the reason in `data`), JSON-RPC framing (batches, notifications, malformed bodies), the
 * HTTP surface (CORS for browser dapps, /health, limits).
 */
import { postJson, rpcResponse } from '@l2wallet/testkit';
import { CallData, ec, hash, stark } from 'starknet';

import {
  ETH_TOKEN,
  newArgentUser,
  paymasterClient,
  SPONSOR_KEY,
  type Stack,
  startStack,
  transfer,
} from './helpers';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(() => stack?.stop());

const SPONSORED = { version: '0x1' as const, fee_mode: { mode: 'sponsored' } };
const IN_ETH = { version: '0x1' as const, fee_mode: { mode: 'default', gas_token: ETH_TOKEN } };
const CALL = {
  to: ETH_TOKEN,
  selector: hash.getSelectorFromName('transfer'),
  calldata: ['0x1', '0x1', '0x0'],
};

/** One call's error, as a raw JSON-RPC client receives it. */
async function errorOf(method: string, params: unknown, headers: Record<string, string> = {}) {
  const reply = await postJson(
    stack.paymaster.url,
    { jsonrpc: '2.0', id: 7, method, params },
    headers,
  );
  expect(reply.json.id).toBe(7);
  return reply.json.error as { code: number; message: string; data?: unknown };
}

const invoke = (user_address: string, calls: unknown[] = [CALL]) => ({
  transaction: { type: 'invoke', invoke: { user_address, calls } },
  parameters: IN_ETH,
});

describe("the spec's errors, each with its reason", () => {
  it('150: an invoke for an address with no account', async () => {
    expect(await errorOf('paymaster_buildTransaction', invoke('0x1234abcd'))).toEqual({
      code: 150,
      message: 'An error occurred (INVALID_ADDRESS)',
      data: expect.stringContaining('no account is deployed at 0x1234abcd'),
    });
  });

  it('151: a gas token not listed', async () => {
    const params = {
      ...invoke(stack.accounts[0].address),
      parameters: { ...IN_ETH, fee_mode: { mode: 'default', gas_token: '0x99' } },
    };
    expect(await errorOf('paymaster_buildTransaction', params)).toMatchObject({
      code: 151,
      message: 'An error occurred (TOKEN_NOT_SUPPORTED)',
    });
  });

  it('155: a contract that does not implement SNIP-9 (an ERC-20 as the user)', async () => {
    expect(await errorOf('paymaster_buildTransaction', invoke(ETH_TOKEN))).toMatchObject({
      code: 155,
      message: 'An error occurred (CLASS_HASH_NOT_SUPPORTED)',
      data: expect.stringContaining('does not implement SNIP-9'),
    });
  });

  it('158: deployment data that does not deploy where it says, or for another user', async () => {
    const user = newArgentUser(stack);
    const wrongAddress = { ...user.deploymentData, salt: '0x1' };
    const build = (deployment: object, userAddress = user.address) =>
      errorOf('paymaster_buildTransaction', {
        transaction: {
          type: 'deploy_and_invoke',
          deployment,
          invoke: { user_address: userAddress, calls: [CALL] },
        },
        parameters: IN_ETH,
      });
    expect(await build(wrongAddress)).toMatchObject({
      code: 158,
      message: 'An error occurred (INVALID_DEPLOYMENT_DATA)',
      data: expect.stringContaining('is not where this class, salt and calldata deploy'),
    });
    expect(await build(user.deploymentData, '0x1234')).toMatchObject({ code: 158 });
    expect(await build({ ...user.deploymentData, version: 0 })).toMatchObject({ code: 158 });
  });

  it('159: a class the network has not declared', async () => {
    const publicKey = ec.starkCurve.getStarkKey(stark.randomAddress());
    const classHash = '0x1234567';
    const calldata = CallData.compile([publicKey, 0]);
    const address = hash.calculateContractAddressFromHash(publicKey, classHash, calldata, 0);
    expect(
      await errorOf(
        'paymaster_buildTransaction',
        {
          transaction: {
            type: 'deploy',
            deployment: { address, class_hash: classHash, salt: publicKey, calldata, version: 1 },
          },
          parameters: SPONSORED,
        },
        { 'x-paymaster-api-key': SPONSOR_KEY },
      ),
    ).toMatchObject({ code: 159, message: 'An error occurred (INVALID_CLASS_HASH)' });
  });

  it('157: time bounds that are reversed, not open yet, or closing too soon', async () => {
    // The chain's time, which the account checks them against (a devnet's block being built
    // carries the time it was opened, behind the wall clock while no transaction comes).
    const { timestamp: now } = await stack.provider.getBlockWithTxHashes('pre_confirmed');
    for (const [after, before, why] of [
      [now - 10, now - 20, /is not before execute_before/],
      [now + 100, now + 600, /is not before the chain's time/],
      [now - 10, now + 5, /leaves less than 30 s/],
    ] as const) {
      const params = invoke(stack.accounts[0].address);
      const error = await errorOf('paymaster_buildTransaction', {
        ...params,
        parameters: {
          ...IN_ETH,
          time_bounds: { execute_after: String(after), execute_before: String(before) },
        },
      });
      expect(error).toMatchObject({
        code: 157,
        message: 'An error occurred (INVALID_TIME_BOUNDS)',
      });
      expect(error.data).toMatch(why);
    }
  });

  it('160: a tracking id this paymaster never gave', async () => {
    expect(await errorOf('paymaster_trackingIdToLatestHash', { tracking_id: '0x5' })).toMatchObject(
      {
        code: 160,
        message: 'An error occurred (INVALID_ID)',
      },
    );
  });

  it('163: a deploy alone paid in a gas token (it carries no fee transfer)', async () => {
    const user = newArgentUser(stack);
    const error = await errorOf('paymaster_buildTransaction', {
      transaction: { type: 'deploy', deployment: user.deploymentData },
      parameters: IN_ETH,
    });
    expect(error).toMatchObject({ code: 163, message: 'An error occurred (UNKNOWN_ERROR)' });
    expect(error.data).toMatch(/can only be sponsored/);
  });

  it('starknet.js reads the code and the reason from the same refusal', async () => {
    const error = await paymasterClient(stack)
      .buildTransaction(
        {
          type: 'invoke',
          invoke: { userAddress: '0x1234abcd', calls: [transfer(ETH_TOKEN, '0x1', 1n)] },
        },
        { version: '0x1', feeMode: { mode: 'default', gasToken: ETH_TOKEN } },
      )
      .then(
        () => undefined,
        (e: unknown) => e as Error & { isType(name: string): boolean },
      );
    expect(error?.isType('INVALID_ADDRESS')).toBe(true);
    expect(error?.message).toMatch(
      /150: An error occurred \(INVALID_ADDRESS\): "no account is deployed at 0x1234abcd/,
    );
  });
});

describe('params', () => {
  it.each([
    [
      'a call without `to`',
      invoke('0x1', [{ selector: '0x1', calldata: [] }]),
      'transaction.invoke.calls[0].to',
    ],
    ['no calls', invoke('0x1', []), 'transaction.invoke.calls'],
    ['a felt that is no felt', invoke('0xzz'), 'transaction.invoke.user_address'],
    [
      'an unknown transaction type',
      { transaction: { type: 'declare' }, parameters: IN_ETH },
      'transaction.type',
    ],
    [
      'an unknown fee mode',
      { ...invoke('0x1'), parameters: { version: '0x1', fee_mode: { mode: 'free' } } },
      'parameters.fee_mode.mode',
    ],
    [
      'another parameters version',
      { ...invoke('0x1'), parameters: { ...IN_ETH, version: '0x2' } },
      'parameters.version',
    ],
    [
      'an unknown member',
      { ...invoke('0x1'), parameters: { ...IN_ETH, gas_price: '0x1' } },
      'parameters.gas_price',
    ],
  ])('%s is -32602 naming the field', async (_name, params, field) => {
    const error = await errorOf('paymaster_buildTransaction', params);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(field);
    expect(error.data).toEqual({ field });
  });

  it('takes params by position too, and none where none are due', async () => {
    expect((await rpcResponse(stack.paymaster.url, 'paymaster_isAvailable', [])).result).toBe(true);
    expect(
      (await rpcResponse(stack.paymaster.url, 'paymaster_getSupportedTokens', {})).result,
    ).toHaveLength(2);
    expect(await errorOf('paymaster_getSupportedTokens', { token: '0x1' })).toMatchObject({
      code: -32602,
    });
    expect(await errorOf('paymaster_trackingIdToLatestHash', ['0x5'])).toMatchObject({ code: 160 });
  });
});

describe('JSON-RPC and HTTP', () => {
  it('answers a batch in order, and nothing to a notification', async () => {
    const reply = await postJson(stack.paymaster.url, [
      { jsonrpc: '2.0', id: 'a', method: 'paymaster_isAvailable' },
      { jsonrpc: '2.0', method: 'paymaster_isAvailable' },
      { jsonrpc: '2.0', id: 'c', method: 'starknet_chainId', params: [] },
      { jsonrpc: '1.0', id: 'd', method: 'paymaster_isAvailable' },
    ]);
    expect(reply.json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: true },
      {
        jsonrpc: '2.0',
        id: 'c',
        error: { code: -32601, message: 'Method not found: starknet_chainId' },
      },
      {
        jsonrpc: '2.0',
        id: 'd',
        error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' },
      },
    ]);
    const notification = await postJson(stack.paymaster.url, {
      jsonrpc: '2.0',
      method: 'paymaster_isAvailable',
    });
    expect(notification.status).toBe(204);
    expect(notification.text).toBe('');
  });

  it("quotes a client's own names back cut short", async () => {
    const long = 'x'.repeat(10_000);
    const unknown = await errorOf(long, []);
    expect(unknown.code).toBe(-32601);
    expect(unknown.message.length).toBeLessThan(100);
    const member = await errorOf('paymaster_buildTransaction', { ...invoke('0x1'), [long]: 1 });
    expect(member.code).toBe(-32602);
    expect(member.message.length).toBeLessThan(150);
  });

  it('refuses bodies it cannot read', async () => {
    const broken = await postJson(stack.paymaster.url, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe(-32700);
    expect((await postJson(stack.paymaster.url, [])).json.error.code).toBe(-32600);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'paymaster_isAvailable',
    }));
    expect((await postJson(stack.paymaster.url, tooMany)).json.error.message).toMatch(
      /at most 20 calls/,
    );
    const huge = await postJson(stack.paymaster.url, 'x'.repeat(1024 * 1024 + 1));
    expect(huge.status).toBe(413);
  });

  it('lets browser dapps call it (CORS, the API key header allowed)', async () => {
    const preflight = await fetch(stack.paymaster.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dapp.example',
        'access-control-request-headers': 'x-paymaster-api-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-paymaster-api-key');
  });

  it('serves /health and nothing else but POST /', async () => {
    const health = await fetch(`${stack.paymaster.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      chain_id: '0x534e5f5345504f4c4941',
      relayer: {
        address: expect.any(String),
        strk_balance: expect.any(String),
        uncertain_submission: false,
      },
    });
    expect((await fetch(`${stack.paymaster.url}/rpc`)).status).toBe(404);
  });
});
