/**
 * @jest-environment-options {"server": {"enabled": false}}
 *
 * l2_declareContract with a CASM (no compiledClassHash) sends the compiled class hash the
 * network expects for the Starknet version its node reports: Blake2s from 0.14.1, Poseidon
 * before. The devnet reports either (--starknet-version) but cannot verify an arbitrary class's
 * hash (it has no Sierra compiler), so each is checked against starknet.js's
 * `hash.computeCompiledClassHash(casm, version)`. Fixture: starknet.js's minimalist class
 * (test/fixtures/README.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, type CompiledSierra, type CompiledSierraCasm } from 'starknet';

import { dialogText, resultOf, type ExpectedAccount } from '../harness/snap';
import {
  closeChainDevnet,
  deployedSender,
  dialogOf,
  nodeReceipt,
  nodeTransaction,
  serveE2eSnap,
  startChainDevnet,
  type DevnetServer,
  type Snap,
  type SnapServer,
} from '../harness/devnet';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures', name), 'utf8')) as unknown;
const SIERRA = fixture('minimalist.sierra.json') as CompiledSierra;
const CASM = fixture('minimalist.casm') as CompiledSierraCasm;

let server: SnapServer;

beforeAll(async () => {
  server = await serveE2eSnap();
}, 300_000);

afterAll(() => server?.close());

describe.each([
  ['0.14.1', 'Blake2s', '0.14.0'],
  ['0.14.0', 'Poseidon', '0.14.1'],
])('on a network at Starknet %s', (version, name, otherVersion) => {
  let devnet: DevnetServer;
  let snap: Snap;
  let sender: ExpectedAccount;

  beforeAll(async () => {
    devnet = await startChainDevnet({ starknetVersion: version });
    ({ snap, sender } = await deployedSender(server, devnet));
  }, 300_000);

  afterAll(() => closeChainDevnet(devnet));

  it(`declares with the ${name} compiled class hash, as starknet.js computes it`, async () => {
    const expected = BigInt(hash.computeCompiledClassHash(CASM, version));
    const other = BigInt(hash.computeCompiledClassHash(CASM, otherVersion));
    expect(expected).not.toBe(other);
    const pending = snap.request({
      method: 'l2_declareContract',
      params: {
        senderAddress: sender.address,
        contractPayload: { contract: SIERRA as never, casm: CASM as never },
      },
    });
    const dialog = await dialogOf(pending);
    // The dialog shows the hash that is signed.
    expect(dialogText(dialog.content)).toContain(`0x${expected.toString(16)}`);
    await dialog.ok();
    const result = resultOf<{ transaction_hash: string; class_hash: string }>(await pending);
    expect(BigInt(result.class_hash)).toBe(BigInt(hash.computeContractClassHash(SIERRA)));
    const tx = await nodeTransaction<{ compiled_class_hash: string }>(
      devnet,
      result.transaction_hash,
    );
    expect(BigInt(tx.compiled_class_hash)).toBe(expected);
    const receipt = await nodeReceipt<{ execution_status: string }>(
      devnet,
      result.transaction_hash,
    );
    expect(receipt.execution_status).toBe('SUCCEEDED');
  });
});
