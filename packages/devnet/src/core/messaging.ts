import { hash as starknetHash } from 'starknet';
import { encodeShortString, Felt, parseFelt, toHex } from './felt';
import { pedersenHashOnElements } from './hashing';
import { InvalidParamError } from './transactions';

// L1 -> L2 messages: the L1 handler transaction a message becomes on L2, its hash and the
// message hash its receipt reports. There is no L1 here: messages are sent into the devnet
// (devnet_postmanSendMessageToL2, as starknet-devnet), never read from an L1 contract.

/** A message as an L1 contract sends it to L2, with the nonce the L1 core contract gives it. */
export interface MessageToL2 {
  /** The L1 (Ethereum) address of the sender, below 2^160. */
  l1ContractAddress: Felt;
  l2ContractAddress: Felt;
  entryPointSelector: Felt;
  payload: Felt[];
  nonce: Felt;
  paidFeeOnL1: Felt;
  /** The L1 transaction that sent it, when known: starknet_getMessagesStatus looks it up. */
  l1TransactionHash?: Felt;
}

export interface L1HandlerTransaction {
  type: 'L1_HANDLER';
  version: 0n;
  nonce: Felt;
  contractAddress: Felt;
  entryPointSelector: Felt;
  /** The L1 sender's address, then the payload: what the `#[l1_handler]` receives. */
  calldata: Felt[];
  message: MessageToL2;
}

export const ETH_ADDRESS_BOUND = 2n ** 160n;
const L1_HANDLER_PREFIX = encodeShortString('l1_handler');

export function l1HandlerTransaction(message: MessageToL2): L1HandlerTransaction {
  return {
    type: 'L1_HANDLER',
    version: 0n,
    nonce: message.nonce,
    contractAddress: message.l2ContractAddress,
    entryPointSelector: message.entryPointSelector,
    calldata: [message.l1ContractAddress, ...message.payload],
    message,
  };
}

/** The protocol's L1 handler transaction hash (Pedersen, version 0, max fee 0). */
export function l1HandlerHash(tx: L1HandlerTransaction, chainId: Felt): Felt {
  return pedersenHashOnElements([
    L1_HANDLER_PREFIX,
    0n,
    tx.contractAddress,
    tx.entryPointSelector,
    pedersenHashOnElements(tx.calldata),
    0n,
    chainId,
    tx.nonce,
  ]);
}

/** The L1 core contract's message hash: keccak256 of the packed uint256 fields. */
export function l2MessageHash(message: MessageToL2): string {
  return starknetHash.solidityUint256PackedKeccak256([
    message.l1ContractAddress,
    message.l2ContractAddress,
    message.nonce,
    message.entryPointSelector,
    BigInt(message.payload.length),
    ...message.payload,
  ]);
}

/** The transaction as RPC returns it (L1_HANDLER_TXN). */
export function l1HandlerToJson(tx: L1HandlerTransaction): Record<string, unknown> {
  return {
    type: 'L1_HANDLER',
    version: '0x0',
    nonce: toHex(tx.nonce),
    contract_address: toHex(tx.contractAddress),
    entry_point_selector: toHex(tx.entryPointSelector),
    calldata: tx.calldata.map((felt) => toHex(felt)),
  };
}

/** The message as devnet_postmanSendMessageToL2 takes it, for dumps. */
export function messageToJson(message: MessageToL2): Record<string, unknown> {
  return {
    l2_contract_address: toHex(message.l2ContractAddress),
    entry_point_selector: toHex(message.entryPointSelector),
    l1_contract_address: toHex(message.l1ContractAddress),
    payload: message.payload.map((felt) => toHex(felt)),
    paid_fee_on_l1: toHex(message.paidFeeOnL1),
    nonce: toHex(message.nonce),
    ...(message.l1TransactionHash === undefined
      ? {}
      : { l1_transaction_hash: toHex(message.l1TransactionHash) }),
  };
}

function felt(obj: Record<string, unknown>, name: string, path: string, optional = false) {
  const value = obj[name];
  if (value === undefined) {
    if (optional) return undefined;
    throw new InvalidParamError(`${path}.${name}`, 'missing');
  }
  try {
    return parseFelt(value);
  } catch (error) {
    throw new InvalidParamError(`${path}.${name}`, (error as Error).message);
  }
}

function ethAddress(obj: Record<string, unknown>, name: string, path: string): Felt {
  const value = felt(obj, name, path) as Felt;
  if (value >= ETH_ADDRESS_BOUND)
    throw new InvalidParamError(`${path}.${name}`, 'expected an L1 address (20 bytes)');
  return value;
}

function feltList(obj: Record<string, unknown>, name: string, path: string): Felt[] {
  const value = obj[name];
  if (!Array.isArray(value))
    throw new InvalidParamError(`${path}.${name}`, 'expected an array of felts');
  return value.map((item, i) => felt({ item }, 'item', `${path}.${name}[${i}]`) as Felt);
}

/** The fields of starknet-devnet's MessageToL2, devnet_postmanSendMessageToL2's params. */
export const MESSAGE_TO_L2_FIELDS = [
  'l2_contract_address',
  'entry_point_selector',
  'l1_contract_address',
  'payload',
  'paid_fee_on_l1',
  'nonce',
  'l1_transaction_hash',
] as const;

/** devnet_postmanSendMessageToL2's params (starknet-devnet's MessageToL2), read strictly. */
export function parseMessageToL2(raw: unknown, path = 'params'): MessageToL2 {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InvalidParamError(path, 'expected a message object');
  const obj = raw as Record<string, unknown>;
  const unknown = Object.keys(obj).find(
    (key) => !(MESSAGE_TO_L2_FIELDS as readonly string[]).includes(key),
  );
  if (unknown) throw new InvalidParamError(`${path}.${unknown}`, 'not a field of a message');
  return {
    l2ContractAddress: felt(obj, 'l2_contract_address', path) as Felt,
    entryPointSelector: felt(obj, 'entry_point_selector', path) as Felt,
    l1ContractAddress: ethAddress(obj, 'l1_contract_address', path),
    payload: feltList(obj, 'payload', path),
    paidFeeOnL1: felt(obj, 'paid_fee_on_l1', path) as Felt,
    nonce: felt(obj, 'nonce', path) as Felt,
    l1TransactionHash: felt(obj, 'l1_transaction_hash', path, true),
  };
}

/** The spec's MSG_FROM_L1 (starknet_estimateMessageFee), as a message with nonce 0. */
export function parseMessageFromL1(raw: unknown, path = 'message'): MessageToL2 {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InvalidParamError(path, 'expected a message object');
  const obj = raw as Record<string, unknown>;
  const known = ['from_address', 'to_address', 'entry_point_selector', 'payload'];
  const unknown = Object.keys(obj).find((key) => !known.includes(key));
  if (unknown) throw new InvalidParamError(`${path}.${unknown}`, 'not a field of MSG_FROM_L1');
  return {
    l1ContractAddress: ethAddress(obj, 'from_address', path),
    l2ContractAddress: felt(obj, 'to_address', path) as Felt,
    entryPointSelector: felt(obj, 'entry_point_selector', path) as Felt,
    payload: feltList(obj, 'payload', path),
    nonce: 0n,
    paidFeeOnL1: 0n,
  };
}
