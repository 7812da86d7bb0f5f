/**
 * Workaround for a hoisting clash in this monorepo: the root node_modules/ajv is 6.x (ESLint needs
 * it), while gatsby's nested schema-utils/ajv-keywords need ajv 8 ("Cannot find module
 * 'ajv/dist/compile/codegen'"). Requests for ajv made from inside gatsby's own node_modules are
 * sent to an ajv 8 copy that is already installed (webpack's). Loaded from gatsby-config.js.
 */
const Module = require('module');
const path = require('path');

function findAjv8() {
  const candidates = ['.', 'webpack', 'terser-webpack-plugin', 'ajv-formats'];
  for (const from of candidates) {
    try {
      const pkgPath = require.resolve('ajv/package.json', {
        paths: [from === '.' ? __dirname : path.dirname(require.resolve(`${from}/package.json`))],
      });
      if (require(pkgPath).version.startsWith('8.')) return path.dirname(pkgPath);
    } catch {
      // try the next one
    }
  }
  return null;
}

/** The ajv version that gatsby's nested modules resolve without help. */
const gatsbySeesAjv = (() => {
  try {
    const gatsbyDir = path.dirname(require.resolve('gatsby/package.json'));
    const pkgPath = require.resolve('ajv/package.json', {
      paths: [path.join(gatsbyDir, 'node_modules', 'ajv-keywords')],
    });
    return require(pkgPath).version;
  } catch {
    return null;
  }
})();
const ajv8 = gatsbySeesAjv && gatsbySeesAjv.startsWith('8.') ? null : findAjv8();

if (ajv8 && !Module._resolveFilename.__ajv8) {
  const original = Module._resolveFilename;
  const gatsbyModules = `${path.sep}gatsby${path.sep}node_modules${path.sep}`;
  const patched = function (request, parent, ...rest) {
    if (
      (request === 'ajv' || request.startsWith('ajv/')) &&
      parent &&
      parent.filename &&
      parent.filename.includes(gatsbyModules)
    ) {
      return original.call(this, ajv8 + request.slice(3), parent, ...rest);
    }
    return original.call(this, request, parent, ...rest);
  };
  patched.__ajv8 = true;
  Module._resolveFilename = patched;
}
