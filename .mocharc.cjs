// Mocha's configuration. Spec files run in parallel worker processes (one per core, two at least, four at most):
// each worker has its own database (PGlite in memory, or its own PostgreSQL database beside DATABASE_URL's — see
// test/helpers/database.ts), and every spec file empties its tables before it starts.
const os = require('node:os');

const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
// Mocha adds the files named on the command line to `spec` below instead of replacing it: `npx mocha test/x.spec.ts`
// would run the whole suite. Named files (or folders/globs under test/) run alone.
const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && /^(\.\/)?test\//.test(arg));

module.exports = {
  spec: named.length ? [] : ['test/**/*.spec.ts'],
  // The real-browser specs need chromium and the built storefront: `npm run test:browser`.
  ignore: ['test/browser/**'],
  'node-option': ['import=tsx'],
  require: ['test/helpers/hooks.ts'],
  timeout: 30000,
  slow: 2000,
  parallel: true,
  jobs: Math.min(4, Math.max(2, cores)),
};
