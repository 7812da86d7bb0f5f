/** Gatsby config for the Starknet snap dapp. */
require('./ajv8-resolve');

module.exports = {
  siteMetadata: {
    title: 'Starknet Snap playground',
    description: 'Try every method of the Starknet MetaMask snap',
  },
  // No plugins: the site is one page, and nothing may reach the internet at build time.
  plugins: [],
};
