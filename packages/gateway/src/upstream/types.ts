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
