/**
 * Positional param checks. Each returns an error text (the caller prefixes the param's name and
 * position) or undefined when the value is acceptable. They check shape only: the upstream
 * node decides what the values mean.
 */
export type Check = (value: unknown) => string | undefined;

export interface Param {
  name: string;
  check: Check;
  optional?: boolean;
}

const HEX = /^0x[0-9a-fA-F]*$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const quantity: Check = (v) =>
  typeof v === 'string' && QUANTITY.test(v) ? undefined : 'must be a hex quantity (0x...)';
export const address: Check = (v) =>
  typeof v === 'string' && ADDRESS.test(v) ? undefined : 'must be a 20-byte hex address';
export const hash32: Check = (v) =>
  typeof v === 'string' && HASH.test(v) ? undefined : 'must be a 32-byte hex string';
export const bytes: Check = (v) =>
  typeof v === 'string' && HEX.test(v) && v.length % 2 === 0
    ? undefined
    : 'must be hex data with an even number of digits';
export const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean');
export const any: Check = () => undefined;

/**
 * A block number or tag; `safe: false` refuses the `safe` tag (docs/interface/gateway.md#methods).
 */
export function block(options: { safe?: boolean; objects?: boolean } = {}): Check {
  const { safe = true, objects = false } = options;
  return (v) => {
    if (typeof v === 'string') {
      if (TAGS.includes(v)) return !safe && v === 'safe' ? 'SAFE_UNSUPPORTED' : undefined;
      if (QUANTITY.test(v)) return undefined;
    }
    // EIP-1898: {blockHash} or {blockNumber}
    if (objects && isObject(v)) {
      if (v.blockHash !== undefined) return hash32(v.blockHash);
      if (v.blockNumber !== undefined) return quantity(v.blockNumber);
    }
    return `must be a hex block number or one of ${TAGS.filter((t) => safe || t !== 'safe').join(', ')}`;
  };
}

function fields(spec: Record<string, Check>): Check {
  const entries = Object.entries(spec);
  return (v) => {
    if (!isObject(v)) return 'must be an object';
    for (const [name, check] of entries) {
      if (v[name] === undefined || v[name] === null) continue;
      const problem = check(v[name]);
      if (problem) return `${name} ${problem}`;
    }
    return undefined;
  };
}

const oneOrMany =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) ? v.map(check).find(Boolean) : check(v);

/** The call object of eth_call and eth_estimateGas. `from` may be omitted (viem, ethers do). */
export const callObject = fields({
  from: address,
  to: address,
  gas: quantity,
  gasPrice: quantity,
  maxFeePerGas: quantity,
  maxPriorityFeePerGas: quantity,
  value: quantity,
  nonce: quantity,
  data: bytes,
  input: bytes,
  accessList: (v) => (Array.isArray(v) ? undefined : 'must be an array'),
});

export const filterObject = fields({
  fromBlock: block(),
  toBlock: block(),
  blockHash: hash32,
  address: oneOrMany(address),
  topics: (v) =>
    Array.isArray(v)
      ? v.map((t) => (t === null ? undefined : oneOrMany(hash32)(t))).find(Boolean)
      : 'must be an array',
});

/** Storage keys up to 32 bytes; shorter ones are left-padded before they go upstream. */
export const storageKeys: Check = (v) => {
  if (!Array.isArray(v)) return 'must be an array of storage keys';
  const bad = v.findIndex((k) => typeof k !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(k));
  return bad === -1 ? undefined : `[${bad}] must be a hex storage key of at most 32 bytes`;
};

export const blockCount: Check = (v) =>
  (typeof v === 'number' && Number.isInteger(v) && v > 0) || quantity(v) === undefined
    ? undefined
    : 'must be a block count (number or hex quantity)';

export const percentiles: Check = (v) =>
  Array.isArray(v) && v.every((p) => typeof p === 'number')
    ? undefined
    : 'must be an array of numbers';

export const subscriptionKind: Check = (v) =>
  v === 'newHeads' || v === 'logs' ? undefined : 'must be "newHeads" or "logs"';

export const subscriptionId: Check = (v) =>
  typeof v === 'string' && HEX.test(v) ? undefined : 'must be a subscription id';

export const req = (name: string, check: Check): Param => ({ name, check });
export const opt = (name: string, check: Check): Param => ({ name, check, optional: true });
