/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_declareContract end to end against a packages/devnet node on this file's own port, with the
 * devnet's Sierra fixture (counter.cairo compiled by wasm-cairo, see
 * packages/devnet/test/fixtures/README.md). wasm-cairo gives no CASM, so the payload states its
 * compiled class hash (the devnet stores it as given). The class hash is recomputed with
 * starknet.js.
 */
import { hash } from 'starknet';

import {
  DEFAULT_SRP,
  dialogText,
  expectedAccount,
  expectError,
  resultOf,
  TEST_ORIGIN,
  type ExpectedAccount,
} from '../harness/snap';
import {
  closeChain,
  COUNTER_SIERRA as SIERRA,
  decline,
  deployedSender,
  dialogOf,
  nodeReceipt,
  nodeTransaction,
  provider,
  serveE2eSnap,
  startChainDevnet,
  submissions,
  type DevnetServer,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

const COMPILED_CLASS_HASH = '0x1234567890abcdef';
/** The same class as plain JSON, for request params. */
const SIERRA_JSON = SIERRA as unknown as Record<string, never>;

let devnet: DevnetServer;
let server: SnapServer;
let snap: Snap;
let sender: ExpectedAccount;

beforeAll(async () => {
  server = await serveE2eSnap();
  devnet = await startChainDevnet();
  ({ snap, sender } = await deployedSender(server, devnet, { indexes: [0, 1] }));
}, 300_000);

afterAll(() => closeChain(devnet, server));

describe('l2_declareContract', () => {
  const expectedClassHash = `0x${BigInt(hash.computeSierraContractClassHash(SIERRA)).toString(16)}`;

  it('sends nothing when the user declines', async () => {
    const sent = submissions(devnet);
    expectError(
      await decline(
        snap.request({
          method: 'l2_declareContract',
          params: {
            senderAddress: sender.address,
            contractPayload: { contract: SIERRA_JSON, compiledClassHash: COMPILED_CLASS_HASH },
          },
        }),
      ),
      4001,
    );
    expect(submissions(devnet)).toBe(sent);
    await expect(provider(devnet).getClassByHash(expectedClassHash)).rejects.toThrow();
  });

  it('refuses a maxFee below the estimate, or bounds above it, naming the field, before any dialog', async () => {
    const sent = submissions(devnet);
    const declare = (invocationsDetails: {
      maxFee: string;
      resourceBounds?: Record<string, { max_amount: string; max_price_per_unit: string }>;
    }) =>
      snap.request({
        method: 'l2_declareContract',
        params: {
          senderAddress: sender.address,
          contractPayload: { contract: SIERRA_JSON, compiledClassHash: COMPILED_CLASS_HASH },
          invocationsDetails,
        },
      });
    expectError(
      await declare({ maxFee: '1' }),
      -32000,
      /"invocationsDetails.maxFee" 1 is below the estimated fee [0-9]+ \(FRI\)/u,
    );
    const bound = { max_amount: '0x100000', max_price_per_unit: '0x100000' };
    expectError(
      await declare({
        resourceBounds: { l1_gas: bound, l2_gas: bound, l1_data_gas: bound },
        maxFee: '1000',
      }),
      -32000,
      /"invocationsDetails.resourceBounds".*above "invocationsDetails.maxFee" 1000/u,
    );
    expect(submissions(devnet)).toBe(sent);
  });

  it("accepts the production snap's names: address, payload, details", async () => {
    const sent = submissions(devnet);
    const pending = snap.request({
      method: 'l2_declareContract',
      params: {
        address: sender.address,
        payload: { contract: SIERRA_JSON, compiledClassHash: COMPILED_CLASS_HASH },
        details: { maxFee: '1000000000000000000' },
      },
    });
    const dialog = await dialogOf(pending);
    expect(dialogText(dialog.content)).toContain(sender.address);
    expect(dialogText(dialog.content)).toContain(expectedClassHash);
    await dialog.cancel();
    expectError(await pending, 4001);
    expect(submissions(devnet)).toBe(sent);
    expectError(
      await snap.request({
        method: 'l2_declareContract',
        params: {
          senderAddress: sender.address,
          contractPayload: { contract: SIERRA_JSON, compiledClassHash: COMPILED_CLASS_HASH },
          payload: { contract: SIERRA_JSON, compiledClassHash: '0x1' },
        },
      }),
      -32602,
      /"payload" must equal "contractPayload"/u,
    );
  });

  it('confirms, declares with v3, and returns {transaction_hash, class_hash}', async () => {
    const pending = snap.request({
      method: 'l2_declareContract',
      params: {
        senderAddress: sender.address,
        // The contract as a JSON string is accepted too.
        contractPayload: {
          contract: JSON.stringify(SIERRA),
          compiledClassHash: COMPILED_CLASS_HASH,
        },
      },
    });
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog.content);
    expect(text).toContain(sender.address);
    expect(text).toContain(expectedClassHash);
    expect(text).toContain(COMPILED_CLASS_HASH);
    // The site that asked (the harness's requests come from TEST_ORIGIN).
    expect(text).toContain(`Requested by\n${new URL(TEST_ORIGIN).host}`);
    await dialog.ok();
    const result = resultOf<{ transaction_hash: string; class_hash: string }>(await pending);
    expect(result.class_hash).toBe(expectedClassHash);

    const tx = await nodeTransaction<{
      type: string;
      version: string;
      class_hash: string;
      compiled_class_hash: string;
      nonce: string;
      tip: string;
      resource_bounds: Record<string, { max_amount: string; max_price_per_unit: string }>;
    }>(devnet, result.transaction_hash);
    // Every hashed field was shown: the nonce sent and the total maximum fee of the bounds sent
    // (each bound times its price, plus the tip on every L2 gas unit).
    const bounds = tx.resource_bounds;
    const maxCharge =
      Object.values(bounds).reduce(
        (sum, bound) => sum + BigInt(bound.max_amount) * BigInt(bound.max_price_per_unit),
        0n,
      ) +
      BigInt(tx.tip) * BigInt(bounds.l2_gas!.max_amount);
    expect(maxCharge).toBeGreaterThan(0n);
    expect(text).toMatch(
      new RegExp(`Maximum fee \\(total\\)\\n[0-9.]+ STRK \\(${maxCharge} FRI\\)`, 'u'),
    );
    expect(text).toContain(`Nonce\n${BigInt(tx.nonce)} (the account's next nonce)`);
    for (const name of ['l1_gas', 'l2_gas', 'l1_data_gas']) {
      expect(text).toContain(
        `Max ${name}\n${BigInt(bounds[name]!.max_amount)} @ ${BigInt(bounds[name]!.max_price_per_unit)} FRI`,
      );
    }
    expect(text).toContain('Data availability (nonce, fee)\nL1, L1');
    expect(tx.type).toBe('DECLARE');
    expect(tx.version).toBe('0x3');
    expect(BigInt(tx.class_hash)).toBe(BigInt(expectedClassHash));
    expect(BigInt(tx.compiled_class_hash)).toBe(BigInt(COMPILED_CLASS_HASH));
    const receipt = await nodeReceipt<{ execution_status: string }>(
      devnet,
      result.transaction_hash,
    );
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const declared = (await provider(devnet).getClassByHash(expectedClassHash)) as unknown as {
      sierra_program: string[];
    };
    expect(declared.sierra_program.length).toBe(SIERRA.sierra_program.length);

    const records = resultOf<{ txnHash: string; txnType: string }[]>(
      await snap.request({
        method: 'l2_getTransactions',
        params: { senderAddress: sender.address, onlyFromState: true },
      }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        txnHash: `0x${BigInt(result.transaction_hash).toString(16)}`,
        txnType: 'declare',
      }),
    );
  });

  it('gives a clear error for a class that is already declared, before any dialog', async () => {
    const sent = submissions(devnet);
    expectError(
      await snap.request({
        method: 'l2_declareContract',
        params: {
          senderAddress: sender.address,
          contractPayload: { contract: SIERRA_JSON, compiledClassHash: COMPILED_CLASS_HASH },
        },
      }),
      -32000,
      new RegExp(`Class ${expectedClassHash} is already declared on Testnet`, 'u'),
    );
    expect(submissions(devnet)).toBe(sent);
  });

  it('asks to deploy an account that is not deployed', async () => {
    const other = await expectedAccount(DEFAULT_SRP, 1);
    expectError(
      await snap.request({
        method: 'l2_declareContract',
        params: {
          senderAddress: other.address,
          contractPayload: {
            contract: { ...SIERRA_JSON, sierra_program: [...SIERRA.sierra_program, '0x1'] },
            compiledClassHash: COMPILED_CLASS_HASH,
          },
        },
      }),
      -32602,
      /"senderAddress" is not deployed/u,
    );
  });

  it.each([
    [{ contractPayload: { contract: {} } }, /"senderAddress" is required/u],
    [{ senderAddress: '0xabc' }, /"contractPayload" is required/u],
    [
      { senderAddress: '0xabc', contractPayload: { contract: SIERRA } },
      /not an account of this snap/u,
    ],
  ])('rejects invalid params %# with -32602', async (params, message) => {
    expectError(
      await snap.request({ method: 'l2_declareContract', params: params as never }),
      -32602,
      message,
    );
  });

  it.each([
    [{ contract: '{not json' }, /"contractPayload.contract" is not valid JSON/u],
    [{ contract: { program: {} } }, /"contractPayload.contract" must be a Sierra contract class/u],
    [{ contract: SIERRA }, /"contractPayload" needs casm .* or compiledClassHash/u],
    [{ contract: SIERRA, compiledClassHash: 'xyz' }, /"contractPayload.compiledClassHash"/u],
  ])('rejects the payload %# with -32602', async (contractPayload, message) => {
    expectError(
      await snap.request({
        method: 'l2_declareContract',
        params: { senderAddress: sender.address, contractPayload } as never,
      }),
      -32602,
      message,
    );
  });
});
