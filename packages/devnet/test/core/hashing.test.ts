import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as scure from '@scure/starknet';
import { CallData, ec, hash, json } from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH } from '../../src/core/constants';
import { selectorFromName, toHex } from '../../src/core/felt';
import {
  computeContractAddress,
  computeSierraClassHash,
  declareV3Hash,
  deployAccountV3Hash,
  invokeV3Hash,
  pedersenHashOnElements,
  SierraContractClass,
} from '../../src/core/hashing';
import { verifyStarkSignature } from '../../src/core/signature';

// The devnet hashes with @scure/starknet primitives; these checks use starknet.js's own helpers.

const fixture = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/counter.contract_class.json'), 'utf8'),
) as {
  sierra_program: string[];
  contract_class_version: string;
  entry_points_by_type: SierraContractClass['entry_points_by_type'];
  abi: unknown[];
};

describe('hashing', () => {
  test('selectors are sn_keccak of the name', () => {
    for (const name of ['transfer', 'balance_of', '__execute__', 'get_owner']) {
      expect(toHex(selectorFromName(name))).toBe(hash.getSelectorFromName(name));
    }
  });

  test('Pedersen hash on elements matches starknet.js', () => {
    const values = [1n, 2n, 0x1234n, 2n ** 200n];
    expect(pedersenHashOnElements(values)).toBe(BigInt(hash.computeHashOnElements(values)));
  });

  test('contract addresses match starknet.js (Argent, deployer 0, salt = public key)', () => {
    const publicKey = ec.starkCurve.getStarkKey('0x123456789');
    const calldata = CallData.compile([publicKey, 0]);
    const expected = hash.calculateContractAddressFromHash(
      publicKey,
      ARGENT_ACCOUNT_CLASS_HASH,
      calldata,
      0,
    );
    const actual = computeContractAddress(
      BigInt(publicKey),
      BigInt(ARGENT_ACCOUNT_CLASS_HASH),
      calldata.map(BigInt),
      0n,
    );
    expect(toHex(actual)).toBe(toHex(BigInt(expected)));
  });

  test('a remembered address is given only for the same inputs (salt, class, deployer, calldata)', () => {
    const salt = BigInt(ec.starkCurve.getStarkKey('0x42'));
    const classHash = BigInt(ARGENT_ACCOUNT_CLASS_HASH);
    const cases: [bigint, bigint[], bigint][] = [
      [salt, [salt, 0n], 0n],
      [salt, [salt, 0n], 0n], // again: from memory
      [salt, [salt, 1n], 0n],
      [salt, [salt], 0n],
      [salt, [salt, 0n], 7n],
      [salt + 1n, [salt, 0n], 0n],
    ];
    for (const [s, calldata, deployer] of cases) {
      const expected = hash.calculateContractAddressFromHash(s, classHash, calldata, deployer);
      expect(toHex(computeContractAddress(s, classHash, calldata, deployer))).toBe(
        toHex(BigInt(expected)),
      );
    }
  });

  test('invoke v3 hash matches starknet.js, including tip, paymaster data and DA modes', () => {
    const resourceBounds = {
      l1_gas: { max_amount: 0n, max_price_per_unit: 150_000n },
      l2_gas: { max_amount: 1_000_000n, max_price_per_unit: 1_500_000n },
      l1_data_gas: { max_amount: 300n, max_price_per_unit: 150n },
    };
    const expected = hash.calculateInvokeTransactionHash({
      senderAddress: '0x123',
      version: '0x3',
      compiledCalldata: ['0x1', '0x2', '0x3'],
      chainId: '0x534e5f5345504f4c4941',
      nonce: 7,
      accountDeploymentData: ['0x9'],
      nonceDataAvailabilityMode: 1 as 0,
      feeDataAvailabilityMode: 0,
      resourceBounds,
      tip: 42,
      paymasterData: ['0x5', '0x6'],
    });
    const actual = invokeV3Hash(
      {
        version: 3n,
        senderAddress: 0x123n,
        chainId: 0x534e5f5345504f4c4941n,
        nonce: 7n,
        tip: 42n,
        resourceBounds: {
          l1Gas: { maxAmount: 0n, maxPricePerUnit: 150_000n },
          l2Gas: { maxAmount: 1_000_000n, maxPricePerUnit: 1_500_000n },
          l1DataGas: { maxAmount: 300n, maxPricePerUnit: 150n },
        },
        paymasterData: [5n, 6n],
        nonceDataAvailabilityMode: 1,
        feeDataAvailabilityMode: 0,
      },
      [1n, 2n, 3n],
      [9n],
    );
    expect(toHex(actual)).toBe(toHex(BigInt(expected)));
  });

  const bounds = {
    l1_gas: { max_amount: 0n, max_price_per_unit: 150_000n },
    l2_gas: { max_amount: 2_000_000n, max_price_per_unit: 1_500_000n },
    l1_data_gas: { max_amount: 400n, max_price_per_unit: 160n },
  };
  const coreBounds = {
    l1Gas: { maxAmount: 0n, maxPricePerUnit: 150_000n },
    l2Gas: { maxAmount: 2_000_000n, maxPricePerUnit: 1_500_000n },
    l1DataGas: { maxAmount: 400n, maxPricePerUnit: 160n },
  };

  test('deploy_account v3 hash matches starknet.js', () => {
    const expected = hash.calculateDeployAccountTransactionHash({
      contractAddress: '0xabc',
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      compiledConstructorCalldata: ['0x11', '0x0'],
      salt: '0x11',
      version: '0x3',
      chainId: '0x534e5f4d41494e',
      nonce: 0,
      nonceDataAvailabilityMode: 0,
      feeDataAvailabilityMode: 1 as 0,
      resourceBounds: bounds,
      tip: 5,
      paymasterData: ['0x7'],
    });
    const actual = deployAccountV3Hash(
      {
        version: 3n,
        senderAddress: 0xabcn,
        chainId: 0x534e5f4d41494en,
        nonce: 0n,
        tip: 5n,
        resourceBounds: coreBounds,
        paymasterData: [7n],
        nonceDataAvailabilityMode: 0,
        feeDataAvailabilityMode: 1,
      },
      [0x11n, 0n],
      BigInt(ARGENT_ACCOUNT_CLASS_HASH),
      0x11n,
    );
    expect(toHex(actual)).toBe(toHex(BigInt(expected)));
  });

  test('declare v3 hash matches starknet.js', () => {
    const expected = hash.calculateDeclareTransactionHash({
      classHash: '0x1234',
      compiledClassHash: '0x5678',
      senderAddress: '0x9',
      version: '0x3',
      chainId: '0x534e5f5345504f4c4941',
      nonce: 3,
      accountDeploymentData: [],
      nonceDataAvailabilityMode: 0,
      feeDataAvailabilityMode: 0,
      resourceBounds: bounds,
      tip: 0,
      paymasterData: [],
    });
    const actual = declareV3Hash(
      {
        version: 3n,
        senderAddress: 9n,
        chainId: 0x534e5f5345504f4c4941n,
        nonce: 3n,
        tip: 0n,
        resourceBounds: coreBounds,
        paymasterData: [],
        nonceDataAvailabilityMode: 0,
        feeDataAvailabilityMode: 0,
      },
      [],
      0x1234n,
      0x5678n,
    );
    expect(toHex(actual)).toBe(toHex(BigInt(expected)));
  });

  test('Sierra class hash of the compiled fixture matches starknet.js', () => {
    const contractClass: SierraContractClass = {
      ...fixture,
      // RPC carries the ABI as a string; starknet.js formats it this way before declaring.
      abi: hash.formatSpaces(json.stringify(fixture.abi)),
    };
    const expected = hash.computeSierraContractClassHash(fixture as never);
    expect(toHex(computeSierraClassHash(contractClass))).toBe(toHex(BigInt(expected)));
  });

  test('Stark signatures: accepted for the signer, rejected otherwise', () => {
    const privateKey = '0x2dccce1da22003777062ee0870e9881b460a8b7eca276870f57c601f182136c';
    const publicKey = BigInt(scure.getStarkKey(privateKey));
    const msg = 0x6fea80189363f3fc7d3e42b44ee69e70ef3bbe5c0adf07c0f8e1b7f2f5b4b2an;
    const sig = scure.sign(toHex(msg), privateKey);
    expect(verifyStarkSignature(msg, sig.r, sig.s, publicKey)).toBe(true);
    expect(verifyStarkSignature(msg + 1n, sig.r, sig.s, publicKey)).toBe(false);
    expect(verifyStarkSignature(msg, sig.r, sig.s, publicKey + 1n)).toBe(false);
    expect(verifyStarkSignature(msg, 0n, sig.s, publicKey)).toBe(false);
    // Cross-check with @scure's verify on the full public key.
    expect(scure.verify(sig, toHex(msg), scure.getPublicKey(privateKey))).toBe(true);
  });
});
