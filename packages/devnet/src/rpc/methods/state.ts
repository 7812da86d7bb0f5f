import { rpcErrors } from '../../core/errors';
import { Felt, toHex } from '../../core/felt';
import { InvalidParamError } from '../../core/transactions';
import { blockIdParam, feltArray, feltParam, Params, required } from '../params';
import type { MethodTable } from './host';

/** Contract state at a block: nonces, classes, storage, and view calls. */
export const stateMethods: MethodTable = {
  starknet_getNonce: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) => toHex(h.devnet.getNonce(feltParam(p, 'contract_address'), blockIdParam(p))),
  },
  starknet_getClassHashAt: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) =>
      toHex(h.devnet.getClassHashAt(feltParam(p, 'contract_address'), blockIdParam(p))),
  },
  starknet_getClassAt: {
    params: ['block_id', 'contract_address'],
    handler: (h, p) => {
      const blockId = blockIdParam(p);
      return h.devnet.getClass(
        h.devnet.getClassHashAt(feltParam(p, 'contract_address'), blockId),
        blockId,
      );
    },
  },
  starknet_getClass: {
    params: ['block_id', 'class_hash'],
    handler: (h, p) => h.devnet.getClass(feltParam(p, 'class_hash'), blockIdParam(p)),
  },
  starknet_getStorageAt: {
    params: ['contract_address', 'key', 'block_id'],
    handler: (h, p) =>
      toHex(
        h.devnet.getStorageAt(
          feltParam(p, 'contract_address'),
          feltParam(p, 'key'),
          blockIdParam(p),
        ),
      ),
  },
  starknet_getCompiledCasm: {
    params: ['class_hash'],
    handler: (h, p) => {
      const classHash = feltParam(p, 'class_hash');
      h.devnet.getClass(classHash, 'pre_confirmed');
      // No Sierra-to-CASM compiler here, and the native classes run in TypeScript: the spec's
      // compilation error, saying why, rather than an invented CASM.
      throw rpcErrors.compilationError(
        `this devnet cannot compile Sierra to CASM, so it has no CASM for class ${toHex(classHash)}`,
      );
    },
  },
  starknet_getStorageProof: {
    params: ['block_id', 'class_hashes', 'contract_addresses', 'contracts_storage_keys'],
    handler: (h, p) => {
      // Without Merkle-Patricia tries there is no proof to give: the spec's 42, as
      // starknet-devnet answers, once the params are read and the block is known (else 24).
      feltArray(p.class_hashes ?? [], 'class_hashes');
      feltArray(p.contract_addresses ?? [], 'contract_addresses');
      const keys = p.contracts_storage_keys ?? [];
      if (!Array.isArray(keys))
        throw new InvalidParamError('contracts_storage_keys', 'expected an array');
      keys.forEach((item: unknown, i) => {
        const at = `contracts_storage_keys[${i}]`;
        if (!item || typeof item !== 'object')
          throw new InvalidParamError(at, 'expected an object');
        feltParam(item as Params, 'contract_address');
        feltArray((item as Params).storage_keys, `${at}.storage_keys`);
      });
      h.devnet.resolveBlock(blockIdParam(p));
      throw rpcErrors.storageProofNotSupported();
    },
  },
  starknet_call: {
    params: ['request', 'block_id'],
    handler: (h, p) => {
      const request = required(p, 'request');
      if (!request || typeof request !== 'object')
        throw new InvalidParamError('request', 'expected an object');
      const r = request as Params;
      const result = h.devnet.call(
        feltParam(r, 'contract_address'),
        feltParam(r, 'entry_point_selector'),
        feltArray(r.calldata ?? [], 'request.calldata'),
        blockIdParam(p),
      );
      return result.map((felt: Felt) => toHex(felt));
    },
  },
};
