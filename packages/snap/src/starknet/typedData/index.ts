/**
 * SNIP-12 typed data (revision 0 or 1), given as a JSON string or an object.
 */
import { typedData, type TypedData } from 'starknet';
import { array, coerce, record, string, type, unknown, type Infer } from 'superstruct';

import { invalidParams } from '../../errors';

const TypedDataObjectStruct = type({
  types: record(string(), array(type({ name: string(), type: string() }))),
  primaryType: string(),
  domain: record(string(), unknown()),
  message: record(string(), unknown()),
});

/** A JSON string is parsed first; what does not parse fails as "expected an object". */
export const TypedDataStruct = coerce(TypedDataObjectStruct, string(), (value) => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
});

export type TypedDataValue = Infer<typeof TypedDataStruct>;

/** The SNIP-12 message hash for `accountAddress`; a bad type structure is -32602 on `field`. */
export function typedDataHash(data: TypedDataValue, accountAddress: string, field: string): string {
  try {
    return typedData.getMessageHash(data as unknown as TypedData, accountAddress);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'cannot be hashed';
    throw invalidParams(field, `is not valid SNIP-12 typed data: ${reason}`);
  }
}
