/**
 * The network's SNIP-29 paymaster (its URL fixed at build time, starknet/networks.ts): builds the
 * outside execution of an account's calls with the fee paid in a gas token, and has a relayer
 * submit it once signed. Its answers are read strictly and its refusals become errors a dapp can
 * act on; like the node, it is named by its host only. What it builds is checked before anything
 * is signed (starknet/paymaster.ts); the client only carries the requests.
 */
import {
  InvalidInputError,
  ResourceUnavailableError,
  TransactionRejected,
} from '@metamask/snaps-sdk';

import { invalidParams } from '../errors';
import { isHexFelt, toHex } from '../starknet/felt';
import { DEFAULT_RPC_TIMEOUT_MS } from './client';
import { describeEndpoint, PAYMASTER, postJson } from './http';

/** The fee a paymaster quotes (SNIP-29 FEE_ESTIMATE), every amount parsed. */
export type PaymasterFee = {
  /** FRI per whole gas token. */
  gasTokenPriceInStrk: bigint;
  estimatedFeeInStrk: bigint;
  estimatedFeeInGasToken: bigint;
  suggestedMaxFeeInStrk: bigint;
  suggestedMaxFeeInGasToken: bigint;
};

export type BuiltTransaction = {
  type: string;
  /** The SNIP-9 outside execution the account is to sign, as the paymaster wrote it. */
  typedData: unknown;
  fee: PaymasterFee;
};

const MAX_MESSAGE = 300;

type Answer = { result?: unknown; error?: { code?: unknown; message?: unknown } };

export class PaymasterClient {
  readonly url: string;

  readonly #timeoutMs: number;

  #nextId = 1;

  constructor(url: string, timeoutMs = DEFAULT_RPC_TIMEOUT_MS) {
    this.url = url;
    this.#timeoutMs = timeoutMs;
  }

  /** The paymaster's host, as dialogs and errors name it. */
  get host(): string {
    return describeEndpoint(this.url);
  }

  malformed(what: string): Error {
    return new ResourceUnavailableError(
      `The paymaster (${this.host}) answered ${what} with a malformed value. Nothing was signed or sent.`,
      { retryable: false, reason: 'malformed answer', timedOut: false },
    );
  }

  async #call(method: string, params: Record<string, unknown>): Promise<unknown> {
    if (!/^https?:\/\//u.test(this.url)) {
      throw invalidParams(
        'details.feeMode',
        'is not available: the snap was built without a paymaster for this network',
      );
    }
    const body = (await postJson(
      PAYMASTER,
      this.url,
      { jsonrpc: '2.0', id: this.#nextId++, method, params },
      { timeoutMs: this.#timeoutMs },
    )) as Answer | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw this.malformed(method);
    }
    if (body.error) {
      throw this.refusal(body.error);
    }
    return body.result;
  }

  /** A SNIP-29 error answer as the snap's error, the paymaster's own words kept (capped). */
  refusal(error: { code?: unknown; message?: unknown }): Error {
    const code = typeof error.code === 'number' ? error.code : undefined;
    const said = typeof error.message === 'string' ? error.message : 'no reason given';
    const message = said.length > MAX_MESSAGE ? `${said.slice(0, MAX_MESSAGE)}...` : said;
    const data = { paymasterCode: code ?? null };
    switch (code) {
      case 151:
        return invalidParams(
          'details.feeMode.gasToken',
          `is not a gas token the paymaster (${this.host}) accepts: ${message}`,
        );
      case 150:
      case 155:
      case 158:
      case 159:
        return new InvalidInputError(
          `The paymaster (${this.host}) cannot relay for this account: ${message}. Nothing was signed or sent.`,
          data,
        );
      default:
        return new TransactionRejected(
          `The paymaster (${this.host}) refused the transaction: ${message}${code === undefined ? '' : ` (${code})`}.`,
          data,
        );
    }
  }

  /** paymaster_buildTransaction: the typed data to sign and the fee. */
  async buildTransaction(
    transaction: Record<string, unknown>,
    parameters: Record<string, unknown>,
  ): Promise<BuiltTransaction> {
    const method = 'paymaster_buildTransaction';
    const result = (await this.#call(method, { transaction, parameters })) as {
      type?: unknown;
      typed_data?: unknown;
      fee?: Record<string, unknown>;
    } | null;
    const fee = result?.fee;
    const amount = (name: string): bigint => {
      const value = fee?.[name];
      if (!isHexFelt(value)) {
        throw this.malformed(`${method} (fee.${name})`);
      }
      return BigInt(value);
    };
    if (typeof result?.type !== 'string' || typeof result.typed_data !== 'object') {
      throw this.malformed(method);
    }
    return {
      type: result.type,
      typedData: result.typed_data,
      fee: {
        gasTokenPriceInStrk: amount('gas_token_price_in_strk'),
        estimatedFeeInStrk: amount('estimated_fee_in_strk'),
        estimatedFeeInGasToken: amount('estimated_fee_in_gas_token'),
        suggestedMaxFeeInStrk: amount('suggested_max_fee_in_strk'),
        suggestedMaxFeeInGasToken: amount('suggested_max_fee_in_gas_token'),
      },
    };
  }

  /** paymaster_executeTransaction: the relayer's transaction hash. */
  async executeTransaction(
    transaction: Record<string, unknown>,
    parameters: Record<string, unknown>,
  ): Promise<string> {
    const method = 'paymaster_executeTransaction';
    const result = (await this.#call(method, { transaction, parameters })) as {
      transaction_hash?: unknown;
    } | null;
    if (!isHexFelt(result?.transaction_hash)) {
      throw this.malformed(method);
    }
    return toHex(result.transaction_hash);
  }

  /**
   * paymaster_trackingIdToLatestHash: the latest relayer transaction of a tracking id and the
   * paymaster's word on it, or undefined when the paymaster does not know the id (160).
   */
  async trackingIdToLatestHash(
    trackingId: string,
  ): Promise<{ transactionHash: string; status: string } | undefined> {
    const method = 'paymaster_trackingIdToLatestHash';
    let result: { transaction_hash?: unknown; status?: unknown } | null;
    try {
      result = (await this.#call(method, { tracking_id: trackingId })) as typeof result;
    } catch (error) {
      if ((error as { data?: { paymasterCode?: unknown } }).data?.paymasterCode === 160) {
        return undefined;
      }
      throw error;
    }
    if (!isHexFelt(result?.transaction_hash) || typeof result?.status !== 'string') {
      throw this.malformed(method);
    }
    return { transactionHash: toHex(result.transaction_hash), status: result.status };
  }
}
