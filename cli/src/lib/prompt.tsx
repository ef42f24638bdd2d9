import { createInterface, type Interface } from 'node:readline';
import { render } from 'ink';
import { Question } from '../components/question';
import { UserError } from './errors';

/**
 * Asks the operator one question: an Ink text field on a terminal, otherwise the next line of standard input
 * (scripts and tests pipe answers in). Secrets are masked on a terminal.
 */
export function ask(label: string, options: { mask?: boolean; placeholder?: string } = {}): Promise<string> {
  if (process.stdin.isTTY) {
    return new Promise((resolve) => {
      const instance = render(
        <Question
          label={label}
          mask={options.mask}
          placeholder={options.placeholder}
          onSubmit={(value) => {
            instance.unmount();
            resolve(value);
          }}
        />,
        { stdout: process.stderr as unknown as NodeJS.WriteStream, exitOnCtrlC: true },
      );
    });
  }
  process.stderr.write(`${label} `);
  return nextLine();
}

/**
 * A new password, asked twice on a terminal so that a typo cannot lock the account out; a mismatch or an empty answer
 * asks again (three tries). Without a terminal the caller reads standard input instead (`--password-stdin`).
 */
export async function askNewPassword(
  label = 'Password:',
  prompt: typeof ask = ask,
  say: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const first = await prompt(label, { mask: true });
    if (!first) {
      say('The password is empty. Try again.');
      continue;
    }
    const again = await prompt('Repeat the password:', { mask: true });
    if (again === first) return first;
    say('The two passwords differ. Try again.');
  }
  throw new UserError(
    'no matching password after three tries',
    'Run the command again, or pipe the password in with its --password-stdin flag.',
  );
}

let lines: Interface | null = null;
const buffered: string[] = [];
const waiting: Array<{ resolve: (line: string) => void; reject: (error: Error) => void }> = [];
let ended = false;

function nextLine(): Promise<string> {
  if (!lines) {
    lines = createInterface({ input: process.stdin, terminal: false });
    lines.on('line', (line) => {
      const waiter = waiting.shift();
      if (waiter) waiter.resolve(line);
      else buffered.push(line);
    });
    lines.on('close', () => {
      ended = true;
      for (const waiter of waiting.splice(0)) waiter.reject(noAnswer());
    });
  }
  const line = buffered.shift();
  if (line !== undefined) return Promise.resolve(line);
  if (ended) return Promise.reject(noAnswer());
  return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
}

const noAnswer = () =>
  new UserError(
    'no answer on standard input',
    'Run the command in a terminal, or pass the value with its flag.',
  );

/** Stops reading standard input so the process can exit. */
export function closePrompts(): void {
  lines?.close();
}

/** The whole of standard input, without the final newline (`--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
