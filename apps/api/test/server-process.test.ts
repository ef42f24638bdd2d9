import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { exited, hasEnded, stopProcess } from './server-process';

/**
 * The helpers every multi-process test waits on. A child ended by a signal has no exit code, and its 'exit' event
 * fires once: the crash test waited for a killed server that had already gone and hung until its 300-s limit.
 */
const sleeper = () => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);

describe('exited', () => {
  it('resolves with the signal for a child killed before anyone waited', async () => {
    const child = sleeper();
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(hasEnded(child)).toBe(true);
    expect(await exited(child)).toBe('SIGKILL');
  });

  it('resolves with the exit code, whether it comes before or after the call', async () => {
    const quick = spawn(process.execPath, ['-e', 'process.exit(3)']);
    const waiting = exited(quick);
    expect(await waiting).toBe(3);
    expect(await exited(quick)).toBe(3);
  });
});

describe('stopProcess', () => {
  it('stops a running child with SIGTERM, and returns at once for one already stopped', async () => {
    const child = sleeper();
    expect(hasEnded(child)).toBe(false);
    expect(await stopProcess(child)).toBe('SIGTERM');
    expect(await stopProcess(child, 'SIGKILL')).toBe('SIGTERM');
  });
});
