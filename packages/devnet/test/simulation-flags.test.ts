import { OZ_ACCOUNT_CLASS_HASH } from '../src';
import { Conformance, signedDeployAccount, signedInvoke } from './conformance-harness';
import { rpc, startTestDevnet, strkBalance, TestDevnet, transferCall } from './helpers';

// Simulation flags change what runs, as on a node: SKIP_VALIDATE leaves __validate__ out (no
// validate_invocation, no signature checked), SKIP_FEE_CHARGE leaves the fee transfer out (no
// fee_transfer_invocation, no balance check). Nothing a simulation does is kept.

interface Trace {
  validate_invocation?: unknown;
  fee_transfer_invocation?: unknown;
  constructor_invocation?: unknown;
  execute_invocation?: { revert_reason?: string };
}
interface Simulation {
  transaction_trace: Trace;
  fee_estimation: { overall_fee: string };
}

describe('simulation flags', () => {
  let t: TestDevnet;
  let c: Conformance;

  beforeAll(async () => {
    t = await startTestDevnet();
    c = new Conformance(t.devnet.rpcUrl);
  });
  afterAll(() => t.devnet.close());

  const simulate = (transactions: unknown[], flags: string[]) =>
    c.result<Simulation[]>('starknet_simulateTransactions', ['latest', transactions, flags]);

  test('SKIP_VALIDATE: no validate_invocation, and a bad signature is not checked', async () => {
    const sender = t.devnet.predeployedAccounts[0];
    const to = t.devnet.predeployedAccounts[1].address;
    const good = signedInvoke(sender, [transferCall(to, 5n)], 0);
    const forged = { ...good, signature: ['0x1', '0x2'] };
    const [validated] = await simulate([good], []);
    expect(validated.transaction_trace.validate_invocation).toBeDefined();
    const [skipped] = await simulate([forged], ['SKIP_VALIDATE']);
    expect(skipped.transaction_trace).not.toHaveProperty('validate_invocation');
    expect(skipped.transaction_trace.execute_invocation).not.toHaveProperty('revert_reason');
    expect(skipped.transaction_trace.fee_transfer_invocation).toBeDefined();
    // The model still prices the validation it left out (README, Fee model).
    expect(skipped.fee_estimation.overall_fee).toBe(validated.fee_estimation.overall_fee);
    const refused = await c.error('starknet_simulateTransactions', ['latest', [forged], []], 41);
    expect(JSON.stringify(refused.data)).toMatch(/validation failed/i);
  });

  test('SKIP_FEE_CHARGE: no fee transfer and no balance check; nothing is kept', async () => {
    const sender = t.devnet.predeployedAccounts[2];
    const to = t.devnet.predeployedAccounts[3].address;
    const before = await strkBalance(t.provider, sender.address);
    const invoke = signedInvoke(sender, [transferCall(to, 5n)], 0);
    const [free] = await simulate([invoke], ['SKIP_FEE_CHARGE']);
    expect(free.transaction_trace).not.toHaveProperty('fee_transfer_invocation');
    expect(free.transaction_trace.validate_invocation).toBeDefined();
    const [both] = await simulate([invoke], ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE']);
    expect(both.transaction_trace).not.toHaveProperty('fee_transfer_invocation');
    expect(both.transaction_trace).not.toHaveProperty('validate_invocation');
    // An account that cannot pay: refused with the fee, simulated without it.
    const { address, tx } = signedDeployAccount('0x5eed3', OZ_ACCOUNT_CLASS_HASH);
    await c.error('starknet_simulateTransactions', ['latest', [tx], []], 41);
    const [deployed] = await simulate([tx], ['SKIP_FEE_CHARGE', 'SKIP_VALIDATE']);
    expect(deployed.transaction_trace.constructor_invocation).toBeDefined();
    expect(deployed.transaction_trace).not.toHaveProperty('validate_invocation');
    expect(deployed.transaction_trace).not.toHaveProperty('fee_transfer_invocation');
    expect(await strkBalance(t.provider, sender.address)).toBe(before);
    const classAt = await rpc(t.devnet.rpcUrl, 'starknet_getClassHashAt', ['latest', address]);
    expect(classAt.error?.code).toBe(20);
  });

  test('estimateFee: SKIP_VALIDATE also skips the signature check', async () => {
    const sender = t.devnet.predeployedAccounts[4];
    const to = t.devnet.predeployedAccounts[1].address;
    const forged = {
      ...signedInvoke(sender, [transferCall(to, 1n)], 0, {
        version: '0x100000000000000000000000000000003',
      }),
      signature: [],
    };
    await c.result('starknet_estimateFee', [[forged], ['SKIP_VALIDATE'], 'latest']);
    await c.error('starknet_estimateFee', [[forged], [], 'latest'], 41);
  });
});
