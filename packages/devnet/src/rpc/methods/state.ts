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
