import { MethodNotFoundError, type Json } from '@metamask/snaps-sdk';
import { validate, type Struct } from 'superstruct';

import { withoutStack } from '@l2wallet/jsonrpc';
import { fromStructError, toRpcError } from './errors';

/** Every method answers to `l2_<name>` and to the get-starknet style alias `starkNet_<name>`. */
export const METHOD_PREFIXES = ['l2_', 'starkNet_'] as const;

export type MethodContext = {
  /** The dapp origin that called wallet_invokeSnap. */
  origin: string;
};

export type MethodDefinition<Params> = {
  /** Base names without prefix; more than one when a method has a second accepted name. */
  names: readonly string[];
  /** Validates and coerces the raw params (defaults applied). Failure -> -32602. */
  params: Struct<Params, unknown>;
  handler: (params: Params, context: MethodContext) => Promise<Json>;
};

/** A method with its param type erased, so one table can hold them all. */
export type RegisteredMethod = {
  names: readonly string[];
  run: (rawParams: unknown, context: MethodContext) => Promise<Json>;
};

export function defineMethod<Params>(definition: MethodDefinition<Params>): RegisteredMethod {
  return {
    names: definition.names,
    run: async (rawParams, context) => {
      const [error, params] = validate(rawParams ?? {}, definition.params, { coerce: true });
      if (error) {
        throw fromStructError(error);
      }
      return definition.handler(params, context);
    },
  };
}

export type RpcRequest = { method: string; params?: unknown };

export type Dispatcher = {
  /** Full method names (with prefixes) that the table answers to. */
  readonly methodNames: readonly string[];
  handle: (request: RpcRequest, context: MethodContext) => Promise<Json>;
};

export function createDispatcher(methods: readonly RegisteredMethod[]): Dispatcher {
  const table = new Map<string, RegisteredMethod>();
  for (const method of methods) {
    for (const name of method.names) {
      for (const prefix of METHOD_PREFIXES) {
        const fullName = `${prefix}${name}`;
        if (table.has(fullName)) {
          throw new Error(`Duplicate snap method ${fullName}`);
        }
        table.set(fullName, method);
      }
    }
  }

  return {
    methodNames: [...table.keys()],
    handle: async (request, context) => {
      const method = table.get(request.method);
      if (!method) {
        throw withoutStack(new MethodNotFoundError(`Method not found: ${String(request.method)}`));
      }
      try {
        return await method.run(request.params, context);
      } catch (error) {
        throw toRpcError(error);
      }
    },
  };
}
