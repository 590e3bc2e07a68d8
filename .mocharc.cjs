// mocha's configuration: the shared resources released once at the end (root hooks), and a
// reporter that ends the run with one line: `N passed, N failed`. `npm test` names the suites (every
// compiled suite of the project and of the example apps); `npx mocha dist/test/api/sort.test.js`
// runs one file.
module.exports = {
  require: ['dist/test/support/root-hooks.js'],
  reporter: './test/support/summary-reporter.cjs',
  // Database suites create databases and start servers: far above mocha's 2 s default.
  timeout: 60000,
  slow: 2000,
  // A suite that leaves a handle open must not keep CI waiting.
  exit: true,
};
