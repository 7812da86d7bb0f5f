import { Account, CallData, ec, hash, num, RpcError, Signature, Signer, stark } from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH } from '../src';
import { startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';

/** Signs as an Argent owner + guardian pair: [owner r, owner s, guardian r, guardian s]. */
class OwnerAndGuardianSigner extends Signer {
  constructor(
    ownerKey: string,
    private readonly guardianKey: string,
  ) {
    super(ownerKey);
  }

  protected override async signRaw(msgHash: string): Promise<Signature> {
    const owner = ec.starkCurve.sign(msgHash, this.pk as string);
    const guardian = ec.starkCurve.sign(msgHash, this.guardianKey);
    return [num.toHex(owner.r), num.toHex(owner.s), num.toHex(guardian.r), num.toHex(guardian.s)];
  }
}

describe('Argent 0.3.1 with a guardian', () => {
  let t: TestDevnet;
  const ownerKey = stark.randomAddress();
  const guardianKey = stark.randomAddress();
  const owner = ec.starkCurve.getStarkKey(ownerKey);
  const guardian = ec.starkCurve.getStarkKey(guardianKey);
  const calldata = CallData.compile([owner, guardian]);
  const address = hash.calculateContractAddressFromHash(
    owner,
    ARGENT_ACCOUNT_CLASS_HASH,
    calldata,
    0,
  );

  beforeAll(async () => {
    t = await startTestDevnet();
    const fund = await t.account(0).execute(transferCall(address, 10n ** 18n));
    await t.provider.waitForTransaction(fund.transaction_hash, WAIT);
  });
  afterAll(() => t.devnet.close());

  test('deploys and transacts with owner and guardian signatures', async () => {
    const account = new Account({
      provider: t.provider,
      address,
      signer: new OwnerAndGuardianSigner(ownerKey, guardianKey),
    });
    const deployed = await account.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata: calldata,
      addressSalt: owner,
    });
    await t.provider.waitForTransaction(deployed.transaction_hash, WAIT);
    const [stored] = await t.provider.callContract({
      contractAddress: address,
      entrypoint: 'get_guardian',
    });
    expect(stored).toBe(num.toHex(guardian));
    const sent = await account.execute(transferCall(t.devnet.predeployedAccounts[1].address, 3n));
    expect((await t.provider.waitForTransaction(sent.transaction_hash, WAIT)).isSuccess()).toBe(
      true,
    );
  });

  test('is_valid_signature wants both signatures', async () => {
    const messageHash = '0x123abc';
    const o = ec.starkCurve.sign(messageHash, ownerKey);
    const g = ec.starkCurve.sign(messageHash, guardianKey);
    const call = (signature: bigint[]) =>
      t.provider.callContract({
        contractAddress: address,
        entrypoint: 'is_valid_signature',
        calldata: [messageHash, String(signature.length), ...signature.map((v) => num.toHex(v))],
      });
    expect(await call([o.r, o.s, g.r, g.s])).toEqual(['0x56414c4944']);
    expect(await call([o.r, o.s])).toEqual(['0x0']);
    expect(await call([o.r, o.s, o.r, o.s])).toEqual(['0x0']);
  });

  test('the owner signature alone is refused (55)', async () => {
    const ownerOnly = new Account({ provider: t.provider, address, signer: ownerKey });
    const error = await ownerOnly
      .execute(transferCall(t.devnet.predeployedAccounts[1].address, 3n))
      .catch((e) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error.code).toBe(55);
  });
});
