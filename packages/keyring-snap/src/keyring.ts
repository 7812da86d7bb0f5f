/**
 * The Keyring API implementation: EOA accounts (derived or imported keys) and ERC-4337
 * SimpleAccount v0.6 accounts owned by a derived key.
 */
import {
  EthAccountType,
  EthScope,
  KeyringEvent,
  type Keyring,
  type KeyringAccount,
  type KeyringRequest,
  type KeyringResponse,
} from '@metamask/keyring-api';
import { emitSnapKeyringEvent } from '@metamask/keyring-snap-sdk';
import type { Json } from '@metamask/snaps-sdk';
import { decodeAbiParameters, encodeFunctionData, getAddress, type Hex } from 'viem';

import { counterfactualAddress, FACTORY_ABI } from './evm/userOperation';
import { rpcCall, serviceName } from './node/client';
import { chainConfig, chainConfigs } from './flows/chainConfigs';
import { chainIdOfScope, scopeOf, show, type ChainConfig } from './evm/chainConfig';
import {
  invalidParams,
  unknownAccount,
  unsupportedMethod,
  upstreamError,
  userRejected,
} from './errors';
import { addressOfKey, deriveKey, isValidPrivateKey } from './keys';
import { methodsOf, REQUEST_METHODS, type AccountType } from './methods';
import { checkOneAccountPerKey } from './state/signers';
import { readState, withStateLock, writeState, type StoredAccount } from './state/store';
import { confirm, ExportAccountScreen } from './ui/dialogs';
import { asRecord, sameAddress } from './evm/validation';

function uuidv4(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function keyOf(stored: StoredAccount): Promise<Hex> {
  return stored.key.kind === 'derived'
    ? deriveKey(stored.key.domain ?? 'eoa', stored.key.index)
    : stored.key.privateKey;
}

/**
 * The account's address, computed here by CREATE2 and confirmed by the factory on the node. A
 * node (or factory) that answers another address is refused: it could otherwise substitute an
 * account it controls.
 */
async function smartAccountAddress(chain: ChainConfig, owner: Hex, salt: Hex): Promise<Hex> {
  const computed = counterfactualAddress(chain.factory, owner, salt);
  const data = encodeFunctionData({
    abi: FACTORY_ABI,
    functionName: 'getAddress',
    args: [owner, BigInt(salt)],
  });
  const word = (await rpcCall(
    chain.rpcUrl,
    'eth_call',
    [{ to: chain.factory, data }, 'latest'],
    'node',
  )) as Hex;
  let reported: Hex | null = null;
  try {
    [reported] = decodeAbiParameters([{ type: 'address' }], word);
  } catch {
    reported = null;
  }
  if (reported === null || !sameAddress(reported, computed)) {
    throw upstreamError(
      serviceName(chain.rpcUrl, 'node'),
      `the factory ${chain.factory} answered getAddress ${reported ?? show(word)}, but CREATE2 of a SimpleAccount v0.6 proxy for the owner gives ${computed}: the account was not created (is the factory SimpleAccountFactory v0.6?)`,
    );
  }
  return getAddress(computed);
}

/**
 * Where each signing method the snap serves names its account (the shapes MetaMask forwards);
 * other methods resolve to no account.
 */
function signerOf(request: { method: string; params?: Json }): string | null {
  const params = Array.isArray(request.params) ? request.params : [];
  let value: unknown;
  switch (request.method) {
    case 'personal_sign':
      value = params[1];
      break;
    case 'eth_signTypedData_v4':
      value = params[0];
      break;
    case 'eth_sendTransaction':
    case 'eth_signTransaction':
      value = (params[0] as Record<string, Json> | null | undefined)?.from;
      break;
    default:
      return null;
  }
  return typeof value === 'string' ? value : null;
}

export class AccountKeyring implements Keyring {
  constructor(private readonly origin: string) {}

  async listAccounts(): Promise<KeyringAccount[]> {
    const state = await readState();
    return Object.values(state.accounts).map((stored) => stored.account);
  }

  async getAccount(id: string): Promise<KeyringAccount | undefined> {
    const state = await readState();
    return state.accounts[id]?.account;
  }

  async createAccount(rawOptions: Record<string, Json> = {}): Promise<KeyringAccount> {
    const options = asRecord(rawOptions, 'options');
    const type = (options.type ?? EthAccountType.Eoa) as string;
    if (type !== EthAccountType.Eoa && type !== EthAccountType.Erc4337) {
      throw invalidParams(
        'options.type',
        `must be "eip155:eoa" or "eip155:erc4337", got ${show(type)}`,
      );
    }
    if (options.privateKey !== undefined && type !== EthAccountType.Eoa) {
      throw invalidParams('options.privateKey', 'can only import an eip155:eoa account');
    }
    if (options.privateKey !== undefined) {
      // Never echo the value: it is a secret.
      if (typeof options.privateKey !== 'string' || !isValidPrivateKey(options.privateKey)) {
        throw invalidParams('options.privateKey', 'must be a 32-byte 0x-hex secp256k1 private key');
      }
    }
    return withStateLock(async () => {
      const state = await readState();
      let stored: StoredAccount;
      const id = uuidv4();
      const correlation = options.metamask === undefined ? {} : { metamask: options.metamask };
      if (type === EthAccountType.Eoa) {
        const imported = options.privateKey as Hex | undefined;
        const index = state.nextIndex;
        const key = imported ?? (await deriveKey('eoa', index));
        const address = addressOfKey(key);
        stored = {
          account: {
            id,
            type: EthAccountType.Eoa,
            address,
            options: imported ? { imported: true } : { index },
            methods: methodsOf('eip155:eoa') as KeyringAccount['methods'],
            scopes: [EthScope.Eoa],
          },
          key: imported
            ? { kind: 'imported', privateKey: imported.toLowerCase() as Hex }
            : { kind: 'derived', index },
        };
      } else {
        const chainId =
          options.chainId === undefined
            ? Number(Object.keys(chainConfigs(state))[0])
            : chainIdOfScope(
                typeof options.chainId === 'number' ? `eip155:${options.chainId}` : options.chainId,
                'options.chainId',
              );
        const chain = chainConfig(state, chainId);
        if (!chain) {
          throw invalidParams(
            'options.chainId',
            `has no chain config (keyring_setChainConfig): ${chainId}`,
          );
        }
        const index = state.nextIndex;
        // The owner key comes from its own domain (keys/): never an EOA key of this keyring.
        const owner = addressOfKey(await deriveKey('owner', index));
        const salt = '0x0' as Hex;
        const address = await smartAccountAddress(chain, owner, salt);
        stored = {
          account: {
            id,
            type: EthAccountType.Erc4337,
            address,
            options: { index, owner, factory: chain.factory, entryPoint: chain.entryPoint },
            methods: methodsOf('eip155:erc4337') as KeyringAccount['methods'],
            scopes: [scopeOf(chainId)],
          },
          key: { kind: 'derived', index, domain: 'owner' },
          smartAccount: { owner, chainId, factory: chain.factory, salt },
        };
      }
      checkOneAccountPerKey(Object.values(state.accounts), stored);
      // MetaMask must accept the account before it is stored.
      await emitSnapKeyringEvent(snap, KeyringEvent.AccountCreated, {
        account: stored.account,
        accountNameSuggestion: type === EthAccountType.Eoa ? 'EVM account' : 'Smart account',
        ...(correlation as Record<string, never>),
      });
      await writeState({
        ...state,
        accounts: { ...state.accounts, [id]: stored },
        nextIndex: stored.key.kind === 'derived' ? state.nextIndex + 1 : state.nextIndex,
      });
      return stored.account;
    });
  }

  async filterAccountChains(id: string, chains: string[]): Promise<string[]> {
    const state = await readState();
    const stored = state.accounts[id];
    if (!stored) {
      throw unknownAccount(id);
    }
    return chains.filter((chain) => {
      if (!/^eip155:[1-9][0-9]*$/u.test(chain)) {
        return false;
      }
      return stored.smartAccount ? chain === scopeOf(stored.smartAccount.chainId) : true;
    });
  }

  async updateAccount(account: KeyringAccount): Promise<void> {
    await withStateLock(async () => {
      const state = await readState();
      const stored = state.accounts[account.id];
      if (!stored) {
        throw unknownAccount(account.id);
      }
      for (const field of ['address', 'type'] as const) {
        if (String(account[field]).toLowerCase() !== String(stored.account[field]).toLowerCase()) {
          throw invalidParams(`account.${field}`, 'cannot change');
        }
      }
      for (const field of ['methods', 'scopes'] as const) {
        if (JSON.stringify(account[field]) !== JSON.stringify(stored.account[field])) {
          throw invalidParams(`account.${field}`, 'cannot change');
        }
      }
      const updated = { ...stored.account, options: account.options };
      await emitSnapKeyringEvent(snap, KeyringEvent.AccountUpdated, { account: updated });
      await writeState({
        ...state,
        accounts: { ...state.accounts, [account.id]: { ...stored, account: updated } },
      });
    });
  }

  async deleteAccount(id: string): Promise<void> {
    await withStateLock(async () => {
      const state = await readState();
      if (!state.accounts[id]) {
        throw unknownAccount(id);
      }
      await emitSnapKeyringEvent(snap, KeyringEvent.AccountDeleted, { id });
      const accounts = { ...state.accounts };
      delete accounts[id];
      await writeState({ ...state, accounts });
    });
  }

  /** The private key, only after the user confirmed a dialog that names the requesting origin. */
  async exportAccount(id: string): Promise<{ privateKey: string }> {
    const state = await readState();
    const stored = state.accounts[id];
    if (!stored) {
      throw unknownAccount(id);
    }
    const approved = await confirm(
      ExportAccountScreen({
        origin: this.origin,
        address: stored.account.address as Hex,
        type: stored.account.type,
      }),
    );
    if (!approved) {
      throw userRejected();
    }
    return { privateKey: await keyOf(stored) };
  }

  async listRequests(): Promise<KeyringRequest[]> {
    return [];
  }

  async getRequest(_id: string): Promise<KeyringRequest | undefined> {
    return undefined;
  }

  async setSelectedAccounts(_accounts: string[]): Promise<void> {
    // Every request names its account; the selection does not change what the snap does.
  }

  /**
   * The account a dapp request is for (MetaMask's bridge asks before it routes a request to a
   * snap account): the address in the place the method puts its signer, if it is one of ours
   * and the account serves the scope. A message that merely looks like an address is not read.
   */
  async resolveAccountAddress(
    scope: `${string}:${string}`,
    request: { method: string; params?: Json },
  ): Promise<{ address: `${string}:${string}:${string}` } | null> {
    const signer = signerOf(request);
    if (signer === null) {
      return null;
    }
    const state = await readState();
    for (const stored of Object.values(state.accounts)) {
      if (!sameAddress(signer, stored.account.address)) {
        continue;
      }
      if (stored.smartAccount && scope !== scopeOf(stored.smartAccount.chainId)) {
        return null;
      }
      return { address: `${scope}:${stored.account.address}` as `${string}:${string}:${string}` };
    }
    return null;
  }

  async submitRequest(request: KeyringRequest): Promise<KeyringResponse> {
    const state = await readState();
    const stored = state.accounts[request.account];
    if (!stored) {
      throw unknownAccount(request.account);
    }
    const method = REQUEST_METHODS.find((entry) => entry.name === request.request.method);
    if (!method) {
      throw unsupportedMethod(request.request.method);
    }
    if (!method.accountTypes.includes(stored.account.type as AccountType)) {
      throw unsupportedMethod(request.request.method, stored.account.type);
    }
    // MetaMask's bridge sends personal_sign (and typed data without domain.chainId) with an
    // empty scope: an EOA then signs for no chain in particular, a smart account for its own.
    const chainId =
      request.scope === ''
        ? (stored.smartAccount?.chainId ?? null)
        : chainIdOfScope(request.scope, 'scope');
    if (stored.smartAccount && chainId !== stored.smartAccount.chainId) {
      throw invalidParams(
        'scope',
        `must be the account's chain ${scopeOf(stored.smartAccount.chainId)}, got "${request.scope}"`,
      );
    }
    const result = await method.handle({
      stored,
      chainId,
      chain: chainId === null ? null : chainConfig(state, chainId),
      params: request.request.params ?? [],
      signingKey: async () => keyOf(stored),
    });
    return { pending: false, result };
  }
}
