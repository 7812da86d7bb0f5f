// Runs every package's own jest project, so `npm test` at the root covers the whole product.
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js'],
};
