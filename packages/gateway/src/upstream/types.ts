export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcAnswer {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: RpcErrorBody;
}

/** What an upstream node speaks: Ethereum JSON-RPC, or Starknet JSON-RPC 0.9 / 0.10. */
export type Protocol = 'evm' | 'starknet';
