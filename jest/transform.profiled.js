// Under `npm run test:profile` every project's transform goes through this wrapper
// (shared.js `transform`): it runs the real transformer and adds the CPU each call took to
// the worker's running total, which the test environment records per test file.
const profile = require('../packages/testkit/dist/profile.js');

const TOTAL = Symbol.for('l2wallet.transpile');

function load(name, options) {
  const loaded = require(name);
  const module = loaded.default ?? loaded;
  return module.createTransformer ? module.createTransformer(options) : module;
}

module.exports = {
  createTransformer({ transformer, options }) {
    const inner = load(transformer, options);
    globalThis[TOTAL] ??= { cpu: 0, files: 0 };
    const timed =
      (method, counts) =>
      (...args) => {
        const cpu = profile.ownCpuSeconds();
        try {
          return inner[method](...args);
        } finally {
          globalThis[TOTAL].cpu += profile.ownCpuSeconds() - cpu;
          if (counts) globalThis[TOTAL].files += 1;
        }
      };
    const wrapped = { canInstrument: inner.canInstrument, process: timed('process', true) };
    if (inner.getCacheKey) wrapped.getCacheKey = timed('getCacheKey', false);
    return wrapped;
  },
};
