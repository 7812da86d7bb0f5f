/**
 * Revert shapes of other node implementations (anvil itself is covered end to end in
 * test/http.test.ts): each becomes {code: 3, message: "execution reverted: ...", data}
 * (docs/interface/gateway.md#semantics).
 */
import {
  capGas,
  decodeRevert,
  normaliseRevert,
  padStorageKeys,
} from '../../src/upstream/normalise';

const reason = 'insufficient balance';
const word = (n: number) => n.toString(16).padStart(64, '0');
const errorData = `0x08c379a0${word(32)}${word(reason.length)}${Buffer.from(reason).toString('hex').padEnd(64, '0')}`;
const expected = { code: 3, message: `execution reverted: ${reason}`, data: errorData };

describe('normaliseRevert', () => {
  it('keeps geth / anvil shape (code 3, data hex)', () => {
    expect(normaliseRevert({ code: 3, message: 'execution reverted: x', data: errorData })).toEqual(
      expected,
    );
  });

  it('normalises Nethermind (-32015, "Reverted 0x...")', () => {
    expect(
      normaliseRevert({
        code: -32015,
        message: 'VM execution error.',
        data: `Reverted ${errorData}`,
      }),
    ).toEqual(expected);
  });

  it('normalises Erigon and older geth (-32000, data nested or missing)', () => {
    expect(
      normaliseRevert({ code: -32000, message: 'execution reverted', data: { data: errorData } }),
    ).toEqual(expected);
    expect(normaliseRevert({ code: -32000, message: 'execution reverted' })).toEqual({
      code: 3,
      message: 'execution reverted',
      data: '0x',
    });
  });

  it('decodes Panic(uint256) and names custom errors by selector', () => {
    const panic = `0x4e487b71${word(0x12)}`;
    expect(decodeRevert(panic)).toBe('panic: division or modulo by zero (0x12)');
    expect(normaliseRevert({ code: -32015, message: 'reverted', data: '0xdeadbeef' }).message).toBe(
      'execution reverted: custom error 0xdeadbeef',
    );
  });

  it('leaves other errors alone', () => {
    const error = { code: -32000, message: 'header not found' };
    expect(normaliseRevert(error)).toBe(error);
  });
});

describe('capGas and padStorageKeys', () => {
  it('caps gas above 10x the block gas limit only', () => {
    expect(capGas([{ gas: '0x100' }], 100n)).toEqual([{ gas: '0x100' }]);
    expect(capGas([{ gas: '0x1000' }, 'latest'], 100n)).toEqual([{ gas: '0x3e8' }, 'latest']);
    expect(capGas([{}], 100n)).toEqual([{}]);
  });

  it('left-pads storage keys to 32 bytes', () => {
    expect(padStorageKeys(['0xabc', ['0x1', '0x' + '22'.repeat(32)], 'latest'])).toEqual([
      '0xabc',
      ['0x' + '0'.repeat(63) + '1', '0x' + '22'.repeat(32)],
      'latest',
    ]);
  });
});
