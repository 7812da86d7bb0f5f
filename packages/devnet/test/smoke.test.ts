import { Account, CallData, ec, hash, stark } from 'starknet';
import { ARGENT_ACCOUNT_CLASS_HASH, STRK_TOKEN_ADDRESS } from '../src';
import { startTestDevnet, WAIT } from './helpers';

test('smoke', async () => {
  const { devnet, provider, account } = await startTestDevnet();
  try {
    const a0 = account(0);
    const res = await a0.execute({
      contractAddress: STRK_TOKEN_ADDRESS,
      entrypoint: 'transfer',
      calldata: CallData.compile({
        recipient: devnet.predeployedAccounts[1].address,
        amount: { low: 1000, high: 0 },
      }),
    });
    const receipt = await provider.waitForTransaction(res.transaction_hash, WAIT);
    console.log(JSON.stringify(receipt, null, 1).slice(0, 1500));
    const priv = stark.randomAddress();
    const pub = ec.starkCurve.getStarkKey(priv);
    const calldata = [pub, '0'];
    const address = hash.calculateContractAddressFromHash(
      pub,
      ARGENT_ACCOUNT_CLASS_HASH,
      calldata,
      0,
    );
    await a0.execute({
      contractAddress: STRK_TOKEN_ADDRESS,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: address, amount: { low: 10n ** 18n, high: 0 } }),
    });
    const argent = new Account({ provider, address, signer: priv });
    const dep = await argent.deployAccount({
      classHash: ARGENT_ACCOUNT_CLASS_HASH,
      constructorCalldata: calldata,
      addressSalt: pub,
      contractAddress: address,
    });
    const r2 = await provider.waitForTransaction(dep.transaction_hash, WAIT);
    console.log(r2.statusReceipt, dep.contract_address, address);
    const m = await argent.execute([
      {
        contractAddress: STRK_TOKEN_ADDRESS,
        entrypoint: 'transfer',
        calldata: CallData.compile({
          recipient: devnet.predeployedAccounts[1].address,
          amount: { low: 5, high: 0 },
        }),
      },
      {
        contractAddress: STRK_TOKEN_ADDRESS,
        entrypoint: 'approve',
        calldata: CallData.compile({
          spender: devnet.predeployedAccounts[1].address,
          amount: { low: 5, high: 0 },
        }),
      },
    ]);
    const r3 = await provider.waitForTransaction(m.transaction_hash, WAIT);
    console.log(r3.statusReceipt);
    const owner = await provider.callContract({
      contractAddress: address,
      entrypoint: 'get_owner',
    });
    console.log(owner, pub);
  } finally {
    await devnet.close();
  }
});
