import { defineNativeClass } from '../classes';
import {
  LEGACY_UDC_ADDRESS,
  LEGACY_UDC_CLASS_HASH,
  UDC_ADDRESS,
  UDC_CLASS_HASH,
} from '../constants';
import type { NativeClass, NativeFunction } from '../execution';
import { Felt, selectorFromName } from '../felt';
import { computeContractAddress, pedersenHash } from '../hashing';
import { abiFunction, BOOL_ENUM, cairo1Abi, T } from './abi';

const CONTRACT_DEPLOYED = selectorFromName('ContractDeployed');

/**
 * deploy_contract(class_hash, salt, not_from_zero, calldata): with not_from_zero the address
 * depends on the caller (salt = pedersen(caller, salt), deployer = the UDC), else on nothing but
 * the inputs (deployer 0). Emits ContractDeployed like OpenZeppelin's UDC.
 */
function deployFunction(udcAddress: Felt): NativeFunction {
  return (ctx, input) => {
    const classHash = input.felt();
    const salt = input.felt();
    const fromCaller = input.bool();
    const calldata = input.array();
    input.end();
    const deploySalt = fromCaller ? pedersenHash(ctx.caller, salt) : salt;
    const deployer = fromCaller ? udcAddress : 0n;
    const address = computeContractAddress(deploySalt, classHash, calldata, deployer);
    // The constructor runs with the UDC as its caller, whatever the address was derived from.
    ctx.execution.deploy(address, classHash, calldata, ctx.self);
    ctx.emit(
      [CONTRACT_DEPLOYED],
      [
        address,
        ctx.caller,
        fromCaller ? 1n : 0n,
        classHash,
        BigInt(calldata.length),
        ...calldata,
        salt,
      ],
    );
    return [address];
  };
}

const deployInputs: [string, string][] = [
  ['class_hash', T.classHash],
  ['salt', T.felt],
  ['not_from_zero', T.bool],
  ['calldata', T.feltSpan],
];

export const udcClass: NativeClass = defineNativeClass(
  'UniversalDeployer',
  UDC_CLASS_HASH,
  cairo1Abi(
    'openzeppelin_utils::deployments::interface::IUniversalDeployer',
    [abiFunction('deploy_contract', deployInputs, [T.address], 'external')],
    undefined,
    [BOOL_ENUM],
  ),
  { deploy_contract: deployFunction(BigInt(UDC_ADDRESS)) },
);

export const legacyUdcClass: NativeClass = defineNativeClass(
  'UniversalDeployer (legacy)',
  LEGACY_UDC_CLASS_HASH,
  cairo1Abi(
    'IUniversalDeployer',
    [
      abiFunction(
        'deployContract',
        [
          ['classHash', T.felt],
          ['salt', T.felt],
          ['unique', T.felt],
          ['calldata', T.felts],
        ],
        [T.address],
        'external',
      ),
    ],
    undefined,
  ),
  { deployContract: deployFunction(BigInt(LEGACY_UDC_ADDRESS)) },
);
