// jest's order (failed first, then slowest first from its cache, else largest first), except that
// while the site's production build is missing or stale the browser tests that serve it go last:
// npm test makes that build beside jest, and they would otherwise hold a worker waiting for it.
const Sequencer = require('@jest/test-sequencer').default;

const SITE_TESTS = /[\\/]packages[\\/]site[\\/]test[\\/].*\.e2e\.test\.ts$/;

class SiteBuildLastSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (require('../packages/testkit/dist/builds/siteBuild.js').siteBuildFresh()) return sorted;
    return [
      ...sorted.filter((test) => !SITE_TESTS.test(test.path)),
      ...sorted.filter((test) => SITE_TESTS.test(test.path)),
    ];
  }
}

module.exports = SiteBuildLastSequencer;
