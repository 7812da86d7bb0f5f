import { ContractExecutionError } from './errors';
import { Felt } from './felt';

/** One item of an account's multicall, as __execute__ takes it. */
export interface DecodedCall {
  to: Felt;
  selector: Felt;
  calldata: Felt[];
}

/** Sequential Cairo-serde reader; a short or malformed calldata fails like Cairo's deserializer. */
export class CalldataReader {
  private offset = 0;
  private param = 0;

  constructor(readonly data: readonly Felt[]) {}

  felt(): Felt {
    this.param += 1;
    return this.next();
  }

  private next(): Felt {
    if (this.offset >= this.data.length) {
      throw new ContractExecutionError(`Failed to deserialize param #${Math.max(this.param, 1)}`);
    }
    return this.data[this.offset++];
  }

  u256(): bigint {
    this.param += 1;
    const low = this.next();
    const high = this.next();
    if (low >= 2n ** 128n || high >= 2n ** 128n) {
      throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    }
    return (high << 128n) + low;
  }

  /** A u64 (block timestamps, SNIP-9 time bounds); a larger value fails like Cairo's Serde. */
  u64(): bigint {
    const value = this.felt();
    if (value >= 1n << 64n)
      throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    return value;
  }

  bool(): boolean {
    const value = this.felt();
    if (value > 1n) throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    return value === 1n;
  }

  array(): Felt[] {
    this.param += 1;
    const length = Number(this.next());
    if (this.offset + length > this.data.length) {
      throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
    }
    const values = this.data.slice(this.offset, this.offset + length);
    this.offset += length;
    return values as Felt[];
  }

  /** Calls as account __execute__ takes them: Array<Call { to, selector, calldata: Array }>. */
  calls(): DecodedCall[] {
    this.param += 1;
    const count = Number(this.next());
    const calls: DecodedCall[] = [];
    for (let i = 0; i < count; i += 1) {
      const to = this.next();
      const selector = this.next();
      const length = Number(this.next());
      if (this.offset + length > this.data.length) {
        throw new ContractExecutionError(`Failed to deserialize param #${this.param}`);
      }
      calls.push({
        to,
        selector,
        calldata: this.data.slice(this.offset, this.offset + length) as Felt[],
      });
      this.offset += length;
    }
    return calls;
  }

  end(): void {
    if (this.offset !== this.data.length) {
      throw new ContractExecutionError('Input too long for arguments');
    }
  }
}
