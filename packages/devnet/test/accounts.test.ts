import {
  Account,
  CallData,
  ec,
  hash,
  num,
  RpcError,
  shortString,
  stark,
  typedData,
} from 'starknet';
import { SNIP12_DOMAIN_TYPE } from '@l2wallet/testkit';
import {
  ARGENT_ACCOUNT_CLASS_HASH,
  ERC20_CLASS_HASH,
  ETH_TOKEN_ADDRESS,
  OZ_ACCOUNT_CLASS_HASH,
  STRK_TOKEN_ADDRESS,
} from '../src';
import {
  RpcV3Transaction,
  startTestDevnet,
  starknetJsTransactionHash,
  strkBalance,
  TestDevnet,
  transferCall,
  WAIT,
} from './helpers';

const SEPOLIA = '0x534e5f5345504f4c4941';

describe('accounts end to end (starknet.js Account against the devnet)', () => {
  let t: TestDevnet;
  const argentKey = stark.randomAddress();
  const argentPublicKey = ec.starkCurve.getStarkKey(argentKey);
  const argentCalldata = CallData.compile([argentPublicKey, 0]);
  // Computed by starknet.js, not by the devnet: the snap derives its addresses this way.
  const argentAddress = hash.calculateContractAddressFromHash(
    argentPublicKey,
    ARGENT_ACCOUNT_CLASS_HASH,
    argentCalldata,
    0,
  );
  let argent: Account;

  beforeAll(async () => {
    t = await startTestDevnet();
    argent = new Account({ provider: t.provider, address: argentAddress, signer: argentKey });
  });
  afterAll(() => t.devnet.close());

  test('the Argent 0.3.1 class is declared at genesis', async () => {
    expect(await t.provider.getClassByHash(ARGENT_ACCOUNT_CLASS_HASH)).toHaveProperty(
      'sierra_program',
    );
    expect(
      num.toHex(await t.provider.getClassHashAt(t.devnet.predeployedAccounts[0].address)),
    ).toBe(num.toHex(OZ_ACCOUNT_CLASS_HASH));
  });

  test('starknet_getClassAt: the class of a predeployed account and of the STRK token', async () => {
    const address = t.devnet.predeployedAccounts[0].address;
    const byAddress = await t.provider.getClassAt(address);
    expect(byAddress).toHaveProperty('sierra_program');
    expect(byAddress).toHaveProperty('entry_points_by_type.EXTERNAL');
    expect(byAddress).toEqual(await t.provider.getClassByHash(OZ_ACCOUNT_CLASS_HASH));
    // At an explicit block too (genesis deployed it).
    expect(await t.provider.getClassAt(address, 0)).toEqual(byAddress);
    expect(await t.provider.getClassAt(STRK_TOKEN_ADDRESS)).toEqual(
      await t.provider.getClassByHash(ERC20_CLASS_HASH),
    );
    const unknown = await t.provider.getClassAt('0x123456789abcdef').catch((e) => e);
    expect(unknown).toBeInstanceOf(RpcError);
    expect(unknown.code).toBe(20);
  });

  test('deploys a counterfactual Argent account funded with STRK', async () => {
    const funder = t.account(0);
    const fund = await funder.execute(transferCall(argentAddress, 10n ** 18n));
    await t.provider.waitForTransaction(fund.transaction_hash, WAIT);
    expect(await strkBalance(t.provider, argentAddress)).toBe(10n ** 18n);

    const deployed = await argent.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata: argentCalldata,
      addressSalt: argentPublicKey,
    });
    expect(num.toHex(deployed.contract_address)).toBe(num.toHex(argentAddress));
    const receipt = await t.provider.waitForTransaction(deployed.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    expect(num.toHex(await t.provider.getClassHashAt(argentAddress))).toBe(
      num.toHex(ARGENT_ACCOUNT_CLASS_HASH),
    );
    expect(await t.provider.getNonceForAddress(argentAddress)).toBe('0x1');

    // The hash the devnet assigned is the protocol hash of what was sent.
    const tx = (await t.provider.getTransactionByHash(
      deployed.transaction_hash,
    )) as unknown as RpcV3Transaction;
    expect(tx.type).toBe('DEPLOY_ACCOUNT');
    expect(num.toHex(starknetJsTransactionHash(tx, SEPOLIA, argentAddress))).toBe(
      num.toHex(deployed.transaction_hash),
    );
    // Fee paid in STRK: the balance dropped by exactly the receipt's fee.
    const fee = BigInt(
      (receipt.value as { actual_fee: { amount: string; unit: string } }).actual_fee.amount,
    );
    expect((receipt.value as { actual_fee: { unit: string } }).actual_fee.unit).toBe('FRI');
    expect(fee).toBeGreaterThan(0n);
    expect(await strkBalance(t.provider, argentAddress)).toBe(10n ** 18n - fee);
  });

  test('Argent view functions behave like the Cairo contract', async () => {
    const call = (entrypoint: string, calldata: string[] = []) =>
      t.provider.callContract({ contractAddress: argentAddress, entrypoint, calldata });
    expect(num.toHex((await call('get_owner'))[0])).toBe(num.toHex(argentPublicKey));
    expect(await call('get_guardian')).toEqual(['0x0']);
    expect(shortString.decodeShortString((await call('get_name'))[0])).toBe('ArgentAccount');
    expect((await call('get_version')).map(Number)).toEqual([0, 3, 1]);
    expect(shortString.decodeShortString((await call('getVersion'))[0])).toBe('0.3.1');

    const messageHash = hash.computePoseidonHashOnElements([1, 2, 3]);
    const signature = ec.starkCurve.sign(messageHash, argentKey);
    const valid = await call('is_valid_signature', [
      messageHash,
      '2',
      num.toHex(signature.r),
      num.toHex(signature.s),
    ]);
    expect(shortString.decodeShortString(valid[0])).toBe('VALID');
    const wrongSigner = ec.starkCurve.sign(messageHash, stark.randomAddress());
    const invalid = await call('isValidSignature', [
      messageHash,
      '2',
      num.toHex(wrongSigner.r),
      num.toHex(wrongSigner.s),
    ]);
    expect(invalid).toEqual(['0x0']);
  });

  test('a SNIP-12 message signed by the account verifies on chain (starknet.js verifyMessageInStarknet)', async () => {
    const message = {
      types: {
        StarknetDomain: SNIP12_DOMAIN_TYPE,
        Mail: [{ name: 'contents', type: 'shortstring' }],
      },
      primaryType: 'Mail',
      domain: { name: 'devnet', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
      message: { contents: 'hello' },
    };
    const signature = await argent.signMessage(message);
    const msgHash = typedData.getMessageHash(message, argentAddress);
    expect(await t.provider.verifyMessageInStarknet(msgHash, signature, argentAddress)).toBe(true);
  });

  test('an ERC-20 transfer: balances, events and the invoke hash', async () => {
    const recipient = t.devnet.predeployedAccounts[3].address;
    const before = await strkBalance(t.provider, recipient);
    const result = await argent.execute(transferCall(recipient, 1234n));
    const receipt = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    expect(await strkBalance(t.provider, recipient)).toBe(before + 1234n);

    const tx = (await t.provider.getTransactionByHash(
      result.transaction_hash,
    )) as unknown as RpcV3Transaction;
    expect(num.toHex(starknetJsTransactionHash(tx, SEPOLIA))).toBe(
      num.toHex(result.transaction_hash),
    );
    const events = (
      receipt.value as { events: { from_address: string; keys: string[]; data: string[] }[] }
    ).events;
    const transfer = events.find(
      (e) =>
        num.toHex(e.from_address) === num.toHex(STRK_TOKEN_ADDRESS) &&
        num.toHex(e.keys[2]) === num.toHex(recipient),
    );
    expect(transfer?.keys[0]).toBe(num.toHex(hash.getSelectorFromName('Transfer')));
    expect(transfer?.data).toEqual(['0x4d2', '0x0']);
  });

  test('a multicall: transfer + approve + transfer_from by the spender, in order', async () => {
    const spender = t.account(4);
    const other = t.devnet.predeployedAccounts[5].address;
    const allowance = async () =>
      (
        await t.provider.callContract({
          contractAddress: STRK_TOKEN_ADDRESS,
          entrypoint: 'allowance',
          calldata: [argentAddress, spender.address],
        })
      ).map(BigInt);
    /** The spender moves `low` of the argent account's STRK to `other` by its allowance. */
    const spendAllowance = (entrypoint: 'transfer_from' | 'transferFrom', low: number) =>
      spender.execute({
        contractAddress: STRK_TOKEN_ADDRESS,
        entrypoint,
        calldata: CallData.compile({
          sender: argentAddress,
          recipient: other,
          amount: { low, high: 0 },
        }),
      });
    type Event = { from_address: string; keys: string[]; data: string[] };
    const eventsOf = (receipt: unknown) => (receipt as { value: { events: Event[] } }).value.events;
    const approvalKey = num.toHex(hash.getSelectorFromName('Approval'));
    const transferKey = num.toHex(hash.getSelectorFromName('Transfer'));
    const otherBefore = await strkBalance(t.provider, other);
    const result = await argent.execute([
      transferCall(other, 10n),
      {
        contractAddress: STRK_TOKEN_ADDRESS,
        entrypoint: 'approve',
        calldata: CallData.compile({ spender: spender.address, amount: { low: 500, high: 0 } }),
      },
    ]);
    const multicall = await t.provider.waitForTransaction(result.transaction_hash, WAIT);
    expect(multicall.isSuccess()).toBe(true);
    expect(await allowance()).toEqual([500n, 0n]);
    // The first call's transfer landed, with its Transfer event.
    expect(await strkBalance(t.provider, other)).toBe(otherBefore + 10n);
    const multicallEvents = eventsOf(multicall);
    expect(
      multicallEvents.filter(
        (e) => e.keys[0] === transferKey && num.toHex(e.keys[2]) === num.toHex(other),
      ),
    ).toEqual([
      {
        from_address: num.toHex(STRK_TOKEN_ADDRESS),
        keys: [transferKey, num.toHex(argentAddress), num.toHex(other)],
        data: ['0xa', '0x0'],
      },
    ]);
    // approve itself emits Approval (owner, spender; the amount approved), after the transfer.
    const approvals = multicallEvents.filter((e) => e.keys[0] === approvalKey);
    expect(approvals).toEqual([
      {
        from_address: num.toHex(STRK_TOKEN_ADDRESS),
        keys: [approvalKey, num.toHex(argentAddress), num.toHex(spender.address)],
        data: ['0x1f4', '0x0'],
      },
    ]);
    expect(multicallEvents.indexOf(approvals[0])).toBeGreaterThan(
      multicallEvents.findIndex((e) => e.keys[0] === transferKey),
    );

    const pull = await spendAllowance('transfer_from', 200);
    await t.provider.waitForTransaction(pull.transaction_hash, WAIT);
    expect(await allowance()).toEqual([300n, 0n]);
    expect(await strkBalance(t.provider, other)).toBe(otherBefore + 210n);

    // The camelCase entry point spends the same allowance and emits Approval with what is left.
    const camel = await spendAllowance('transferFrom', 100);
    const receipt = await t.provider.waitForTransaction(camel.transaction_hash, WAIT);
    const events = (
      receipt.value as unknown as {
        events: { from_address: string; keys: string[]; data: string[] }[];
      }
    ).events;
    const approval = events.find(
      (e) => e.keys[0] === num.toHex(hash.getSelectorFromName('Approval')),
    );
    expect(approval).toEqual({
      from_address: num.toHex(STRK_TOKEN_ADDRESS),
      keys: [
        num.toHex(hash.getSelectorFromName('Approval')),
        num.toHex(argentAddress),
        num.toHex(spender.address),
      ],
      data: ['0xc8', '0x0'],
    });
    expect(await strkBalance(t.provider, other)).toBe(otherBefore + 310n);
  });

  test('ERC-20 metadata and both naming styles', async () => {
    const call = (token: string, entrypoint: string, calldata: string[] = []) =>
      t.provider.callContract({ contractAddress: token, entrypoint, calldata });
    expect(shortString.decodeShortString((await call(STRK_TOKEN_ADDRESS, 'symbol'))[0])).toBe(
      'STRK',
    );
    expect(shortString.decodeShortString((await call(ETH_TOKEN_ADDRESS, 'name'))[0])).toBe('Ether');
    expect(await call(ETH_TOKEN_ADDRESS, 'decimals')).toEqual(['0x12']);
    const address = t.devnet.predeployedAccounts[2].address;
    expect(await call(ETH_TOKEN_ADDRESS, 'balanceOf', [address])).toEqual(
      await call(ETH_TOKEN_ADDRESS, 'balance_of', [address]),
    );
    expect(await call(STRK_TOKEN_ADDRESS, 'totalSupply')).toEqual(
      await call(STRK_TOKEN_ADDRESS, 'total_supply'),
    );
  });

  test('OpenZeppelin 1.0.0 account views', async () => {
    const a = t.devnet.predeployedAccounts[0];
    const call = (entrypoint: string, calldata: string[] = []) =>
      t.provider.callContract({ contractAddress: a.address, entrypoint, calldata });
    expect(await call('get_public_key')).toEqual([num.toHex(a.public_key)]);
    expect(await call('getPublicKey')).toEqual([num.toHex(a.public_key)]);
    const messageHash = '0x1234';
    const signature = ec.starkCurve.sign(messageHash, a.private_key);
    const ok = await call('is_valid_signature', [
      messageHash,
      '2',
      num.toHex(signature.r),
      num.toHex(signature.s),
    ]);
    expect(shortString.decodeShortString(ok[0])).toBe('VALID');
    // The camelCase entry point answers the same: 'VALID' for a good signature, 0 otherwise
    // (OpenZeppelin 1.0.0 returns 0 rather than failing, for a wrong key, hash or length).
    const camel = (hashToCheck: string, sig: string[]) =>
      call('isValidSignature', [hashToCheck, String(sig.length), ...sig]);
    const rs = [num.toHex(signature.r), num.toHex(signature.s)];
    expect(shortString.decodeShortString((await camel(messageHash, rs))[0])).toBe('VALID');
    expect(await camel('0x1235', rs)).toEqual(['0x0']);
    const other = ec.starkCurve.sign(messageHash, t.devnet.predeployedAccounts[1].private_key);
    expect(await camel(messageHash, [num.toHex(other.r), num.toHex(other.s)])).toEqual(['0x0']);
    expect(await camel(messageHash, [rs[0]])).toEqual(['0x0']);
    expect(await call('is_valid_signature', [messageHash, '2', rs[0], num.toHex(other.s)])).toEqual(
      ['0x0'],
    );
  });

  test('predeployed accounts derive from the seed and match starknet.js addresses', async () => {
    for (const a of t.devnet.predeployedAccounts.slice(0, 3)) {
      expect(ec.starkCurve.getStarkKey(a.private_key)).toBe(num.toHex(a.public_key));
      const address = hash.calculateContractAddressFromHash(
        a.public_key,
        OZ_ACCOUNT_CLASS_HASH,
        [a.public_key],
        0,
      );
      expect(num.toHex(address)).toBe(num.toHex(a.address));
    }
  });
});
