/**
 * A one-line progress bar for long commands (`copy`, `seed`, `import-strapi`), redrawn in place
 * with `\r` — only when the output is a terminal. Piped or captured output (CI, logs, tests)
 * gets the command's ordinary lines and nothing else.
 */

/** Where a bar is drawn: process.stdout, or any stream that says whether it is a terminal. */
export interface BarStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

export interface ProgressBar {
  /** `done` of `total` steps finished; `label` says what is being done. */
  update(done: number, total: number, label: string): void;
  /** Prints a line of the command's output above the bar. */
  line(text: string): void;
  /** Removes the bar. */
  finish(): void;
}

const WIDTH = 24;
const CLEAR_LINE = '\r\x1b[K';

export function progressBar(stream: BarStream = process.stdout, title = ''): ProgressBar {
  if (!stream.isTTY) {
    return { update: () => undefined, line: (text) => void stream.write(`${text}\n`), finish: () => undefined };
  }
  let shown = '';
  const draw = (text: string) => {
    shown = text;
    stream.write(`${CLEAR_LINE}${text}`);
  };
  return {
    update(done, total, label) {
      const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
      const filled = Math.round(ratio * WIDTH);
      const text = `${title}${title ? ' ' : ''}[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done}/${total} ${label}`;
      // Longer than the terminal, the line would wrap and \r would no longer return to its start.
      // A pseudo-terminal without a size reports 0 columns.
      draw(text.slice(0, Math.max(10, (stream.columns || 80) - 1)));
    },
    line(text) {
      stream.write(`${CLEAR_LINE}${text}\n`);
      if (shown) stream.write(shown);
    },
    finish() {
      if (shown) stream.write(CLEAR_LINE);
      shown = '';
    },
  };
}
