/**
 * `gatsby develop` adds eslint-webpack-plugin with ESLint 8 options, which the repo's ESLint 9
 * rejects ("Unknown options: extensions, useEslintrc, ..."). Linting runs through `npm run lint`
 * at the root instead, so the plugin is dropped from the dev bundle.
 */
exports.onCreateWebpackConfig = ({ stage, getConfig, actions }) => {
  if (stage !== 'develop') return;
  const config = getConfig();
  config.plugins = config.plugins.filter(
    (plugin) => !plugin || plugin.constructor.name !== 'ESLintWebpackPlugin',
  );
  actions.replaceWebpackConfig(config);
};
