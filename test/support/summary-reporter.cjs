/**
 * mocha's spec reporter, ending with one line that CI reads: `N passed, N failed` (then
 * `, N pending` when some were pending). Plain CommonJS: mocha loads reporters with require().
 *
 * With TEST_TIMINGS=<file>, it also writes the wall time of every top-level suite (a file's
 * describe blocks, hooks included), the CPU time this process spent in it and that of the child
 * processes it waited for (commands, compilers, servers of its own) there as JSON,
 * slowest first: where a slow run spends its time.
 */
const Mocha = require('mocha');
const { readFileSync, writeFileSync } = require('node:fs');
const { relative } = require('node:path');

/** CPU seconds of this process's children that have ended (cutime + cstime of /proc/self/stat), or 0 where there is no /proc. */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const timingsFile = process.env.TEST_TIMINGS;
    const timings = [];
    if (timingsFile) {
      const started = new Map();
      runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
        if (suite.parent?.root) started.set(suite, { at: Date.now(), cpu: process.cpuUsage(), children: childrenCpuSeconds() });
      });
      runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
        const start = started.get(suite);
        if (start === undefined) return;
        const cpu = process.cpuUsage(start.cpu);
        timings.push({ seconds: (Date.now() - start.at) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, childrenCpuSeconds: childrenCpuSeconds() - start.children, file: suite.file ? relative(process.cwd(), suite.file) : '', title: suite.title });
      });
    }
    // Registered after the spec reporter's own epilogue, so the line comes last.
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      if (timingsFile) writeFileSync(timingsFile, JSON.stringify(timings.sort((a, b) => b.seconds - a.seconds), null, 1));
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`${passes} passed, ${failures} failed${pending > 0 ? `, ${pending} pending` : ''}\n`);
    });
  }
}

module.exports = SummaryReporter;
