// @spruceid/siwe-parser builds its ABNF grammar as it loads (a cost in bench/RESULTS.md), and
// every test file that loads the snaps simulation loads it, through @metamask/controller-utils,
// which only calls it to parse a sign-in message. shared.js maps the package here: the same
// exports, the real module loaded on their first use.
let real;
const load = () => (real ??= require('@spruceid/siwe-parser/dist/parsers.js'));

Object.defineProperty(exports, '__esModule', { value: true });
// Its exports: ParsedMessage (the grammar's parser) and its utils module's (cheap to load).
for (const name of [
  'ParsedMessage',
  ...Object.keys(require('@spruceid/siwe-parser/dist/utils.js')),
]) {
  if (name === '__esModule') continue;
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
}
