// The floor of the snap's bundle (bench/snap): a snap that uses one starknet.js function and
// nothing else, built with this package's snap.config.ts (SNAP_BUILD_FLOOR=starknet). Whatever
// is imported from starknet.js, its bundle keeps about this much (its module-level code).
import type { OnRpcRequestHandler } from '@metamask/snaps-sdk';
import { ec } from 'starknet';

export const onRpcRequest: OnRpcRequestHandler = async ({ request }) =>
  ec.starkCurve.getStarkKey(request.method);
