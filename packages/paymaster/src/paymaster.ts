/**
 * The transport-free core: start-up checks, the SNIP-29 method table, and one body in, one body
 * out. The HTTP server only reads requests and writes what this answers.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import { STRK_TOKEN_ADDRESS } from '@l2wallet/starknet-protocol';

import { errors, PaymasterError, quoted } from './errors';
import { AccountClasses } from './flows/accounts';
import { buildTransaction } from './flows/build';
import type { Caller, FlowContext } from './flows/context';
import { executeTransaction } from './flows/execute';
import { mapNodeError } from './flows/nodeErrors';
import { type Health, health, metricsText, trackingStatus } from './flows/status';
import { RateLimits, RedisRateLimits } from './flows/rateLimits';
import { BuildRecords, Claims } from './flows/buildsAndClaims';
import { ChainClock } from './node/clock';
import { NodeUnavailable, StarknetNode } from './node/client';
import { checkSignature, erc20Decimals } from './node/contracts';
import {
  errorMessage,
  type JsonRpcCall,
  type JsonRpcId,
  parseBody,
  resultMessage,
} from './protocol/envelope';
import { type Felt, readFelt, toHex } from './protocol/felt';
import { FRI_PER_STRK, type GasToken, parseStrkPrice } from './protocol/fees';
import {
  namedParams,
  readExecutableTransaction,
  readExecutionParameters,
  readUserTransaction,
} from './protocol/params';
import { signHash } from './protocol/transaction';
import { Relayer } from './relayer/relayer';
import { randomFelt, TrackingStore } from './relayer/tracking';
import { AccountLocks } from './relayer/accountLocks';
import { Metrics } from './metrics';
import { DEFAULT_POLICY, type PaymasterOptions, readPrivateKey, StartupError } from './options';
import { openRedis, RedisState } from './store/redis';
import { PaymasterState } from './store/state';
import type { StateStore } from './store/store';

export type { Health };
export { DEFAULT_POLICY, type PaymasterOptions, StartupError } from './options';

const STRK = BigInt(STRK_TOKEN_ADDRESS);
const sha256 = (text: string) => createHash('sha256').update(text).digest();

type Method = (paymaster: Paymaster, params: unknown, caller: Caller) => Promise<unknown>;

const noParams = (params: unknown) => {
  if (params !== undefined && !(Array.isArray(params) && params.length === 0)) {
    namedParams(params, []);
  }
};

const METHODS: Record<string, Method> = {
  paymaster_isAvailable: async (paymaster, params) => {
    noParams(params);
    return (await paymaster.health()).status === 'ok';
  },
  paymaster_getSupportedTokens: async (paymaster, params) => {
    noParams(params);
    return [...paymaster.context.tokens.values()].map((token) => ({
      token_address: toHex(token.address),
      decimals: token.decimals,
      price_in_strk: toHex(token.priceInFri),
    }));
  },
  paymaster_buildTransaction: async (paymaster, params, caller) => {
    const { transaction, parameters } = namedParams(params, ['transaction', 'parameters']);
    const tx = readUserTransaction(transaction);
    await paymaster.limit(caller, tx);
    return buildTransaction(paymaster.context, tx, readExecutionParameters(parameters), caller);
  },
  paymaster_executeTransaction: async (paymaster, params, caller) => {
    const { transaction, parameters } = namedParams(params, ['transaction', 'parameters']);
    const tx = readExecutableTransaction(transaction);
    await paymaster.limit(caller, tx);
    return executeTransaction(paymaster.context, tx, readExecutionParameters(parameters), caller);
  },
  paymaster_trackingIdToLatestHash: async (paymaster, params) => {
    const { tracking_id: id } = namedParams(params, ['tracking_id']);
    return paymaster.trackingStatus(readFelt(id, 'tracking_id'));
  },
};

export class Paymaster {
  private readonly apiKeyHashes: Buffer[];

  private constructor(
    readonly context: FlowContext,
    apiKeys: string[],
  ) {
    this.apiKeyHashes = apiKeys.map(sha256);
  }

  /** Checks the node, the relayer (deployed, and the key signs for it) and the gas tokens. */
  static async start(options: PaymasterOptions): Promise<Paymaster> {
    const log = options.log ?? (() => undefined);
    const privateKey = readPrivateKey(options.relayerPrivateKey);
    let relayerAddress: Felt;
    try {
      relayerAddress = readFelt(options.relayerAddress, 'relayer');
    } catch {
      throw new StartupError('the relayer address is not a felt (0x...)');
    }
    const node = new StarknetNode(options.nodeUrl, options.nodeTimeoutMs ?? 10_000);
    try {
      const chainId = BigInt(await node.chainId());
      if ((await node.classHashAt(toHex(relayerAddress))) === undefined) {
        throw new StartupError(
          `no account is deployed at the relayer address ${toHex(relayerAddress)}`,
        );
      }
      const probe = randomFelt();
      const check = await checkSignature(node, relayerAddress, probe, signHash(probe, privateKey));
      if (!check.valid) {
        throw new StartupError(
          `the relayer key does not sign for the relayer account ${toHex(relayerAddress)} (${check.why})`,
        );
      }
      const tokens = new Map<Felt, GasToken>();
      tokens.set(STRK, {
        address: STRK,
        decimals: await erc20Decimals(node, STRK),
        priceInFri: FRI_PER_STRK,
      });
      for (const listed of options.gasTokens ?? []) {
        let address: Felt;
        let priceInFri: bigint;
        try {
          address = readFelt(listed.address, 'gas token');
          priceInFri = parseStrkPrice(listed.priceInStrk);
        } catch (error) {
          throw new StartupError(`gas token ${listed.address}: ${(error as Error).message}`);
        }
        if (address === STRK) throw new StartupError('STRK is always a gas token, at price 1');
        const decimals = await erc20Decimals(node, address).catch(() => {
          throw new StartupError(
            `gas token ${toHex(address)} has no decimals(): is it an ERC-20 on this network?`,
          );
        });
        tokens.set(address, { address, decimals, priceInFri });
      }
      const claims = new Claims();
      const dropped = new Set<Felt>();
      let state: StateStore;
      let rateLimits;
      const perMinute = options.rateLimitPerMinute ?? 120;
      if (options.redisUrl !== undefined) {
        const redis = await openRedis(options.redisUrl).catch((error: Error) => {
          throw new StartupError(error.message);
        });
        state = new RedisState(redis, options.redisPrefix);
        rateLimits = new RedisRateLimits(redis, perMinute, options.redisPrefix);
      } else {
        try {
          state = new PaymasterState(options.stateFile);
        } catch (error) {
          throw new StartupError(`the state file cannot be opened: ${(error as Error).message}`);
        }
        rateLimits = new RateLimits(perMinute);
      }
      const relayer = new Relayer({
        node,
        address: relayerAddress,
        privateKey,
        chainId,
        sendAttempts: options.sendAttempts,
        onDropped: (hash) => {
          claims.releaseHash(hash);
          // Read (and deleted) by the receipt follow-up of the submission; kept bounded.
          if (dropped.size > 10_000) dropped.clear();
          dropped.add(hash);
          log(`dropped transaction ${toHex(hash)}: never included, its request is free again`);
        },
      });
      await relayer.start();
      const context: FlowContext = {
        node,
        chainId,
        clock: new ChainClock(node),
        relayer,
        tokens,
        accounts: new AccountClasses(node),
        builds: new BuildRecords(),
        claims,
        tracking: new TrackingStore(state, (request, error) =>
          log(
            `tracking id ${toHex(request.id)} (transaction ${toHex(request.hash)}) not stored: ${error.message}`,
          ),
        ),
        locks: new AccountLocks(
          8,
          state,
          options.turnLeaseMs ??
            (options.receiptTimeoutMs ?? DEFAULT_POLICY.receiptTimeoutMs) + 30_000,
        ),
        dropped,
        state,
        metrics: new Metrics(),
        rateLimits,
        strk: STRK,
        policy: {
          feeMarginPercent: options.feeMarginPercent ?? DEFAULT_POLICY.feeMarginPercent,
          defaultValiditySeconds:
            options.defaultValiditySeconds ?? DEFAULT_POLICY.defaultValiditySeconds,
          maxValiditySeconds: options.maxValiditySeconds ?? DEFAULT_POLICY.maxValiditySeconds,
          minValiditySeconds: options.minValiditySeconds ?? DEFAULT_POLICY.minValiditySeconds,
          maxTip: options.maxTip ?? DEFAULT_POLICY.maxTip,
          sponsorDailyBudgetFri:
            options.sponsorDailyBudgetFri ?? DEFAULT_POLICY.sponsorDailyBudgetFri,
          minRelayerBalanceFri: options.minRelayerBalanceFri ?? DEFAULT_POLICY.minRelayerBalanceFri,
          receiptTimeoutMs: options.receiptTimeoutMs ?? DEFAULT_POLICY.receiptTimeoutMs,
        },
        log,
      };
      return new Paymaster(context, options.apiKeys ?? []);
    } catch (error) {
      if (error instanceof StartupError) throw error;
      if (error instanceof NodeUnavailable) {
        throw new StartupError(`the Starknet node does not answer (${error.message})`);
      }
      throw new StartupError(
        `the Starknet node refused a start-up check: ${(error as Error).message}`,
      );
    }
  }

  /** Whether `key` is one of the sponsor keys (compared as SHA-256 digests, in constant time). */
  isSponsorKey(key: string | undefined): boolean {
    return this.sponsorId(key) !== undefined;
  }

  /** The sponsor key's id (the first 16 hex digits of its digest), undefined when not a key. */
  sponsorId(key: string | undefined): string | undefined {
    if (!key) return undefined;
    const digest = sha256(key);
    let found: Buffer | undefined;
    for (const known of this.apiKeyHashes) {
      if (timingSafeEqual(known, digest)) found = known;
    }
    return found?.subarray(0, 8).toString('hex');
  }

  /** Rate limits of builds and executes: per client address, then per account. */
  async limit(
    caller: Caller,
    tx: { type: string; invoke?: { userAddress: Felt }; deployment?: { address: Felt } },
  ): Promise<void> {
    const { rateLimits } = this.context;
    if (caller.client !== undefined) {
      await rateLimits.take(`client:${caller.client}`, `the client ${caller.client}`);
    }
    const account = tx.invoke?.userAddress ?? tx.deployment?.address;
    if (account !== undefined)
      await rateLimits.take(`account:${toHex(account)}`, `the account ${toHex(account)}`);
  }

  /** One JSON-RPC call. */
  async call(method: string, params: unknown, caller: Caller): Promise<unknown> {
    const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!handler) throw errors.methodNotFound(method);
    return handler(this, params, caller);
  }

  /** A request body (one call or a batch) and the API key header: the status and body to answer. */
  async handle(
    text: string,
    apiKey: string | undefined,
    client?: string,
  ): Promise<{ status: number; body?: string }> {
    let parsed: ReturnType<typeof parseBody>;
    try {
      parsed = parseBody(text);
    } catch (error) {
      const refusal = error as PaymasterError;
      return { status: refusal.httpStatus, body: JSON.stringify(errorMessage(null, refusal)) };
    }
    const sponsorId = this.sponsorId(apiKey);
    const caller: Caller = { sponsorKey: sponsorId !== undefined, sponsorId, client };
    const answers = await Promise.all(parsed.calls.map((call) => this.answer(call, caller)));
    const sent = answers.filter((answer) => answer !== undefined);
    if (!parsed.batch) {
      const [only] = sent;
      if (!only) return { status: 204 };
      const status = 'error' in only ? (only.status ?? 200) : 200;
      return { status, body: JSON.stringify(only.message) };
    }
    return sent.length === 0
      ? { status: 204 }
      : { status: 200, body: JSON.stringify(sent.map((a) => a.message)) };
  }

  private async answer(
    call: JsonRpcCall | { id: JsonRpcId; error: PaymasterError },
    caller: Caller,
  ): Promise<{ message: object; status?: number; error?: true } | undefined> {
    if ('error' in call)
      return {
        message: errorMessage(call.id, call.error),
        status: call.error.httpStatus,
        error: true,
      };
    try {
      const result = await this.call(call.method, call.params, caller);
      return call.id === undefined ? undefined : { message: resultMessage(call.id, result) };
    } catch (error) {
      // A node failure anywhere in a flow: the node's reason, or the node unreachable.
      const mapped = mapNodeError(error, 'the node refused a request');
      const refusal =
        mapped instanceof PaymasterError ? mapped : this.unexpected(call.method, error);
      this.context.metrics.refusals.add({
        method: Object.hasOwn(METHODS, call.method) ? call.method : 'other',
        code: String(refusal.code),
        reason: refusal.reason ?? 'other',
      });
      if (refusal.code !== -32601) {
        this.context.log(
          `refused ${quoted(call.method)}: ${refusal.code} ${quoted(JSON.stringify(refusal.data ?? refusal.message), 500)}`,
        );
      }
      return call.id === undefined
        ? undefined
        : { message: errorMessage(call.id, refusal), status: refusal.httpStatus, error: true };
    }
  }

  /** A bug, not a refusal: logged with its stack (which holds no key), answered as -32603. */
  private unexpected(method: string, error: unknown): PaymasterError {
    this.context.log(`internal error in ${method}: ${(error as Error)?.stack ?? String(error)}`);
    return errors.internal();
  }

  trackingStatus(id: Felt): ReturnType<typeof trackingStatus> {
    return trackingStatus(this.context, id);
  }

  /** The node answers, the relayer has STRK above its floor, and no submission is uncertain. */
  health(): Promise<Health> {
    return health(this.context);
  }

  /** GET /metrics: the counters, and the relayer's balance of each token read now. */
  metricsText(): Promise<string> {
    return metricsText(this.context);
  }

  async close(): Promise<void> {
    this.context.relayer.close();
    await this.context.state.close();
  }
}
