import { array, defaulted, size, type, type Infer } from 'superstruct';

import { AddressStruct, FeltStruct, NonEmptyTrimmedString } from '../rpc/structs';

/** SPEC 2.3 call: target `contractAddress`, `entrypoint` name, `calldata` felts. */
export const CallStruct = type({
  contractAddress: AddressStruct,
  entrypoint: NonEmptyTrimmedString('an entrypoint name'),
  calldata: defaulted(array(FeltStruct), []),
});
export type CallValue = Infer<typeof CallStruct>;

export const CallsStruct = size(array(CallStruct), 1, 256);
