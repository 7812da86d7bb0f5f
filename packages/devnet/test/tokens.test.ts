/**
 * A token of one's own: the native ERC-20 class deployed through the UDC with its constructor
 * (name, symbol, decimals, initial supply, recipient), read back and used with starknet.js.
 */
import { CallData, shortString, uint256 } from 'starknet';

import { ERC20_CLASS_HASH, STRK_TOKEN_ADDRESS } from '../src';
import { startTestDevnet, TestDevnet, transferCall, WAIT } from './helpers';

let t: TestDevnet;

beforeAll(async () => {
  t = await startTestDevnet({ accounts: 2 });
});

afterAll(() => t.devnet.close());

async function read(token: string, entrypoint: string, calldata: string[] = []) {
  return t.provider.callContract({ contractAddress: token, entrypoint, calldata });
}

describe('the ERC-20 class deployed through the UDC', () => {
  test('takes name, symbol, decimals and the supply from its constructor; the supply is transferable', async () => {
    const deployer = t.account(0);
    const holder = t.devnet.predeployedAccounts[0].address;
    const other = t.devnet.predeployedAccounts[1].address;
    const deployment = await deployer.deployContract(
      {
        classHash: ERC20_CLASS_HASH,
        salt: '0x5',
        constructorCalldata: CallData.compile([
          shortString.encodeShortString('USD Coin'),
          shortString.encodeShortString('USDC'),
          6,
          uint256.bnToUint256(1_000_000_000n),
          holder,
        ]),
      },
      WAIT,
    );
    const token = deployment.contract_address;
    expect(shortString.decodeShortString((await read(token, 'name'))[0])).toBe('USD Coin');
    expect(shortString.decodeShortString((await read(token, 'symbol'))[0])).toBe('USDC');
    expect(BigInt((await read(token, 'decimals'))[0])).toBe(6n);
    const [low, high] = await read(token, 'balance_of', [holder]);
    expect(uint256.uint256ToBN({ low, high })).toBe(1_000_000_000n);

    const sent = await deployer.execute(transferCall(other, 250n, token));
    await t.provider.waitForTransaction(sent.transaction_hash, WAIT);
    const [otherLow, otherHigh] = await read(token, 'balance_of', [other]);
    expect(uint256.uint256ToBN({ low: otherLow, high: otherHigh })).toBe(250n);
    // Nobody may mint more (no permitted minter).
    const minting = await deployer
      .execute(
        {
          contractAddress: token,
          entrypoint: 'permissioned_mint',
          calldata: CallData.compile([holder, uint256.bnToUint256(1n)]),
        },
        { skipValidate: true },
      )
      .catch((error: unknown) => error);
    expect(String(minting)).toMatch(/only the permitted minter can mint/u);
  });

  test('the genesis tokens are unchanged (deployed with no constructor calldata)', async () => {
    expect(shortString.decodeShortString((await read(STRK_TOKEN_ADDRESS, 'symbol'))[0])).toBe(
      'STRK',
    );
    expect(BigInt((await read(STRK_TOKEN_ADDRESS, 'decimals'))[0])).toBe(18n);
  });

  test('a constructor call with a decimals above 255 reverts', async () => {
    const deployment = await t
      .account(1)
      .deployContract({
        classHash: ERC20_CLASS_HASH,
        salt: '0x6',
        constructorCalldata: [
          '0x1',
          '0x2',
          '256',
          '0x1',
          '0x0',
          t.devnet.predeployedAccounts[1].address,
        ],
      })
      .catch((error: unknown) => error);
    expect(String(deployment)).toMatch(/Failed to deserialize param #3/u);
  });
});
