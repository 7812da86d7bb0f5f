/**
 * Chain configs: the build-time default plus whatever keyring_setChainConfig stored.
 */
import { chainIdOfScope, defaultChainConfig, show, type ChainConfig } from '../evm/chainConfig';
import { invalidParams, userRejected } from '../errors';
import { readState, withStateLock, writeState, type KeyringState } from '../state/store';
import { ChainConfigScreen, confirm } from '../ui/dialogs';
import { asAddress, asRecord, onlyKeys } from '../evm/validation';

export function chainConfigs(state: KeyringState): Record<string, ChainConfig> {
  const base = defaultChainConfig();
  return { [String(base.chainId)]: base, ...state.chains };
}

export function chainConfig(state: KeyringState, chainId: number): ChainConfig | null {
  return chainConfigs(state)[String(chainId)] ?? null;
}

/** The value is never echoed: a service URL may carry an API key in its path or query. */
function asUrl(value: unknown, field: string): string {
  if (typeof value !== 'string') {
    throw invalidParams(field, `must be an http(s) URL, got ${typeof value}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParams(field, 'must be an http(s) URL, got a string that is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidParams(field, `must be an http(s) URL, got a ${url.protocol} URL`);
  }
  return value;
}

function parseChainId(value: unknown, field: string): number {
  if (typeof value === 'string' && value.startsWith('eip155:')) {
    return chainIdOfScope(value, field);
  }
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^[1-9][0-9]{0,15}$/u.test(text)) {
    throw invalidParams(field, `must be a decimal chain id, got ${show(value)}`);
  }
  return Number(text);
}

export function parseChainConfig(raw: unknown): ChainConfig {
  const params = asRecord(raw, 'params');
  onlyKeys(
    params,
    ['chainId', 'rpcUrl', 'bundlerUrl', 'entryPoint', 'factory', 'paymasterUrl'],
    'params',
  );
  return {
    chainId: parseChainId(params.chainId, 'params.chainId'),
    rpcUrl: asUrl(params.rpcUrl, 'params.rpcUrl'),
    bundlerUrl: asUrl(params.bundlerUrl, 'params.bundlerUrl'),
    entryPoint: asAddress(params.entryPoint, 'params.entryPoint').toLowerCase() as `0x${string}`,
    factory: asAddress(params.factory, 'params.factory').toLowerCase() as `0x${string}`,
    paymasterUrl:
      params.paymasterUrl === undefined ||
      params.paymasterUrl === null ||
      params.paymasterUrl === ''
        ? null
        : asUrl(params.paymasterUrl, 'params.paymasterUrl'),
  };
}

/** keyring_setChainConfig: after the user confirmed old -> new in a dialog naming the origin. */
export async function setChainConfig(raw: unknown, origin: string): Promise<ChainConfig> {
  const next = parseChainConfig(raw);
  return withStateLock(async () => {
    const state = await readState();
    const before = chainConfig(state, next.chainId);
    if (!(await confirm(ChainConfigScreen({ origin, before, after: next })))) {
      throw userRejected();
    }
    await writeState({ ...state, chains: { ...state.chains, [String(next.chainId)]: next } });
    return next;
  });
}

export async function getChainConfigs(): Promise<ChainConfig[]> {
  return Object.values(chainConfigs(await readState()));
}
