/**
 * mocha's spec reporter, ending with one line that CI reads: `N passed, N failed` (then
 * `, N pending` when some were pending). Plain CommonJS: mocha loads reporters with require().
 */
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // Registered after the spec reporter's own epilogue, so the line comes last.
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`${passes} passed, ${failures} failed${pending > 0 ? `, ${pending} pending` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
