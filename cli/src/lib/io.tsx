import type { ReactElement } from 'react';
import { render, renderToString, type Instance } from 'ink';
import { ProgressBar } from '../components/progress-bar';

/** How a command talks to the operator: one JSON document with --json, Ink-rendered text otherwise. */
export interface Io {
  readonly json: boolean;
  readonly debug: boolean;
  /** Prints the command's result: `doc` as JSON with --json, else the rendered element (or plain text). */
  result(doc: unknown, human: ReactElement | string | (() => ReactElement | string)): void;
  /** Human-only informational line on stderr (never with --json, so stdout stays one document). */
  note(text: string): void;
  /** A progress bar on stderr when it is a terminal; a no-op otherwise and with --json. */
  progress(label: string, total: number): Progress;
}

export interface Progress {
  update(done: number, total?: number): void;
  done(): void;
}

// Piped output is not wrapped: scripts and logs get each line whole.
const columns = () => (process.stdout.isTTY ? process.stdout.columns || 100 : 1000);

export function createIo(options: { json: boolean; debug: boolean }): Io {
  return {
    json: options.json,
    debug: options.debug,
    result(doc, human) {
      if (options.json) {
        process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
        return;
      }
      const value = typeof human === 'function' ? human() : human;
      const text = typeof value === 'string' ? value : renderToString(value, { columns: columns() });
      if (text.length > 0) process.stdout.write(`${text}\n`);
    },
    note(text) {
      if (!options.json) process.stderr.write(`${text}\n`);
    },
    progress(label, total) {
      if (options.json || !process.stderr.isTTY) return { update() {}, done() {} };
      let current = { done: 0, total };
      let last = 0;
      const instance: Instance = render(<ProgressBar label={label} done={0} total={total} />, {
        stdout: process.stderr as unknown as NodeJS.WriteStream,
        patchConsole: false,
        exitOnCtrlC: false,
      });
      return {
        update(done, newTotal) {
          current = { done, total: newTotal ?? current.total };
          const now = Date.now();
          // Re-render at most ten times a second: rendering is far slower than a row.
          if (now - last < 100 && done < current.total) return;
          last = now;
          instance.rerender(<ProgressBar label={label} done={current.done} total={current.total} />);
        },
        done() {
          instance.rerender(<ProgressBar label={label} done={current.total} total={current.total} />);
          instance.unmount();
        },
      };
    },
  };
}
