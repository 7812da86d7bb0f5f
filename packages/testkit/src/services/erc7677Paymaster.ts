/**
 * The paymaster service of the local ERC-4337 stack: ERC-7677's two methods, answered by signing
 * for the deployed VerifyingPaymaster v0.6.
 */
import type { Hex } from 'viem';

import { artifact } from './accountAbstractionContracts';
import { jsonRpcFailure, serveJsonRpc } from './jsonRpcServer';
import { privateKeyToAccount, viem } from './lazyViem';

type Address = `0x${string}`;

/** 65 bytes that parse as a signature, for stub data (see the keyring snap's dummy signature). */
const STUB_SIGNATURE = `${'f'.repeat(31)}${'0'.repeat(33)}7${'a'.repeat(63)}1c`;

export interface PaymasterService {
  port: number;
  url: string;
  /** JSON-RPC methods received so far, in order. */
  requests(): string[];
  stop(): Promise<void>;
}

function invalidParams(message: string) {
  return jsonRpcFailure(-32602, message);
}

/**
 * A small ERC-7677 paymaster service (v0.6 operations) for the deployed VerifyingPaymaster:
 * pm_getPaymasterStubData answers the paymaster with a parseable dummy signature,
 * pm_getPaymasterData signs VerifyingPaymaster.getHash(op, validUntil, validAfter) with the
 * verifying signer. It sponsors every operation of `chainId` for `entryPoint`; requests for
 * anything else are refused. Served on 127.0.0.1.
 */
export async function startPaymasterService(options: {
  rpcUrl: string;
  entryPoint: string;
  paymaster: string;
  chainId: number;
  signerKey: Hex;
  port?: number;
  validitySeconds?: number;
}): Promise<PaymasterService> {
  const { rpcUrl, entryPoint, chainId } = options;
  const paymaster = options.paymaster as Address;
  const signer = privateKeyToAccount(options.signerKey);
  const validitySeconds = options.validitySeconds ?? 3600;
  const { abi } = artifact('VerifyingPaymaster');
  const { createPublicClient, encodeAbiParameters, http: viemHttp } = viem();
  const client = createPublicClient({ transport: viemHttp(rpcUrl) });
  const requests: string[] = [];

  function checkRequest(params: unknown): Record<string, string> {
    if (!Array.isArray(params) || params.length < 3 || typeof params[0] !== 'object') {
      throw invalidParams('params must be [userOperation, entryPoint, chainId, context]');
    }
    if (String(params[1]).toLowerCase() !== entryPoint.toLowerCase()) {
      throw invalidParams(`entry point ${params[1]} is not sponsored`);
    }
    if (Number(params[2]) !== chainId) {
      throw invalidParams(`chain ${params[2]} is not sponsored`);
    }
    return params[0] as Record<string, string>;
  }

  async function paymasterAndData(op: Record<string, string>, sign: boolean): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const validUntil = sign ? now + validitySeconds : 0;
    const validAfter = 0;
    const times = encodeAbiParameters(
      [{ type: 'uint48' }, { type: 'uint48' }],
      [validUntil, validAfter],
    ).slice(2);
    if (!sign) {
      return `${paymaster}${times}${STUB_SIGNATURE}`;
    }
    const userOp = {
      sender: op.sender,
      nonce: BigInt(op.nonce),
      initCode: op.initCode,
      callData: op.callData,
      callGasLimit: BigInt(op.callGasLimit),
      verificationGasLimit: BigInt(op.verificationGasLimit),
      preVerificationGas: BigInt(op.preVerificationGas),
      maxFeePerGas: BigInt(op.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
      // VerifyingPaymaster v0.6 hashes the operation's raw calldata up to paymasterAndData,
      // whose head holds the signature's offset: it depends on paymasterAndData's length, so
      // the hash is taken with a placeholder of the final length.
      paymasterAndData: `${paymaster}${times}${'00'.repeat(65)}`,
      signature: '0x',
    };
    const hash = (await client.readContract({
      address: paymaster,
      abi,
      functionName: 'getHash',
      args: [userOp, validUntil, validAfter],
    })) as Hex;
    const signature = await signer.signMessage({ message: { raw: hash } });
    return `${paymaster}${times}${signature.slice(2)}`;
  }

  const server = await serveJsonRpc(options.port ?? 0, async (method, params) => {
    requests.push(method);
    if (method === 'pm_getPaymasterStubData') {
      return { paymasterAndData: await paymasterAndData(checkRequest(params), false) };
    }
    if (method === 'pm_getPaymasterData') {
      return { paymasterAndData: await paymasterAndData(checkRequest(params), true) };
    }
    throw jsonRpcFailure(-32601, `Method not found: ${method}`);
  });
  return {
    port: server.port,
    url: server.url,
    requests: () => [...requests],
    stop: server.close,
  };
}
