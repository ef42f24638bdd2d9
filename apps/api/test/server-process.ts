import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
/** The server's bundle (rebuilt from source by the API tests' global setup): what `attestly serve` runs. */
export const serverEntry = path.join(root, 'apps/api/dist/server.js');
/**
 * The command that runs a TypeScript script as one process: node itself with tsx's loader. Not the `tsx` command,
 * which runs the script in a child node process and relays only catchable signals: a SIGKILL meant to crash a server
 * would kill the wrapper and leave the server running, orphaned, against the test's database.
 */
export const tsxCommand = (script: string, ...args: string[]) =>
  [process.execPath, ['--import', 'tsx', script, ...args]] as const;
/**
 * The server entry as one process. Its bundle starts with about half the CPU of the TypeScript source through tsx
 * (1.3–1.4 s against 2.9–3.6 s to listening on a busy 2-core machine), and a suite starts it about fifteen times.
 */
export const serverCommand = [process.execPath, [serverEntry]] as const;

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output: () => string;
}

/**
 * Starts the real server entry as its own process on a random port (PORT=0) and resolves once it logs the port
 * it listens on. Output is collected for assertions and error messages.
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(serverCommand[0], [...serverCommand[1]], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    const poll = setInterval(() => {
      const match = /"port":(\d+)[^\n]*Attestly listening/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/**
 * True once the child has ended. A child ended by a signal (every SIGKILL) has a `signalCode` and no `exitCode`, so
 * `exitCode !== null` alone would call a killed child running.
 */
export const hasEnded = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Resolves with the child's exit code, or the signal that ended it; at once when it has already ended (its 'exit'
 * event will not fire again, so waiting for it would hang).
 */
export const exited = (child: ChildProcess) =>
  new Promise<number | NodeJS.Signals>((resolve) => {
    if (hasEnded(child)) return resolve(child.exitCode ?? (child.signalCode as NodeJS.Signals));
    child.once('exit', (code, signal) => resolve(code ?? (signal as NodeJS.Signals)));
  });

/** Sends `signal` (default SIGTERM, a graceful shutdown) unless the child has ended, and waits until it has. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  const ended = exited(child);
  if (!hasEnded(child)) child.kill(signal);
  return ended;
}
