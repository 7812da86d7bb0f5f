// Bundle-size shim: @metamask/utils imports all of lodash for `memoize` alone, so the snap
// bundle resolves 'lodash' to this module (see snap.config.ts).
module.exports = { memoize: require('lodash/memoize') };
