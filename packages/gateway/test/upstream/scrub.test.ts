/** Upstream error text is scrubbed of anything that looks like a credential; chain data stays. */
import { scrubber, scrubError, secretsOf } from '../../src/upstream/scrub';

const URL_WITH_SECRETS =
  'https://user:p4ssw0rd@mainnet.example.io/v3/0123456789abcdef0123456789abcdef?apikey=SeCrEtKeY99';
const scrub = scrubber(secretsOf(URL_WITH_SECRETS));
const scrubbed = (error: object) => JSON.parse(scrubError(JSON.stringify(error), scrub));

it('masks the configured URL’s key, password and query values wherever they are echoed', () => {
  const out = scrubbed({
    code: -32005,
    message: `project 0123456789abcdef0123456789abcdef over its limit at ${URL_WITH_SECRETS}`,
    data: { url: URL_WITH_SECRETS, note: 'password p4ssw0rd, key SeCrEtKeY99' },
  });
  const text = JSON.stringify(out);
  for (const secret of ['0123456789abcdef0123456789abcdef', 'p4ssw0rd', 'SeCrEtKeY99', 'user:']) {
    expect(text).not.toContain(secret);
  }
  expect(out.code).toBe(-32005);
  expect(out.message).toContain('over its limit at https://');
});

it('masks credentials it was never told about: userinfo, bearer, JWTs, named secrets, long tokens', () => {
  const out = scrubbed({
    code: -32000,
    message:
      'denied for https://alice:hunter22@other.io/rpc?token=abc123&x=1 with Authorization: Bearer ' +
      'abcdefghijkl.mnopqr, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl, api_key=zzz9999 ' +
      'and project 9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  });
  for (const secret of [
    'hunter22',
    'abc123',
    'abcdefghijkl',
    'eyJhbGci',
    'zzz9999',
    '9f8e7d6c5b4a',
  ]) {
    expect(out.message).not.toContain(secret);
  }
  expect(out.message).toContain('x=1');
});

it('keeps chain data: hex values, revert reasons and plain words', () => {
  const revert = {
    code: 3,
    message: 'execution reverted: UniswapV2Library_INSUFFICIENT_AMOUNT1',
    data: '0x08c379a0' + '00'.repeat(64),
  };
  expect(scrubbed(revert)).toEqual(revert);
  const params = {
    code: -32602,
    message:
      'invalid params: storage key: 0xabc is not 32 bytes (eth_getTransactionByBlockNumberAndIndex)',
  };
  expect(scrubbed(params)).toEqual(params);
  const error = '{"code":-32000,"message":"nonce too low"}';
  expect(scrubError(error, scrub)).toBe(error); // unchanged text passes through as it came
});
