import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VisionBusyError, VisionInputError, reviveError } from './errors';
import type { WorkerOp, WorkerRequest, WorkerResponse, WorkerValue } from './worker-protocol';

export interface WorkerPoolOptions {
  size: number;
  /** Jobs waiting beyond the ones running; more are refused with VisionBusyError. */
  maxQueue: number;
  /** A job running longer is abandoned and its worker replaced, so one bad file cannot wedge a thread. */
  jobTimeoutMs: number;
  workerData: unknown;
}

interface Job {
  id: number;
  op: WorkerOp;
  bytes: Uint8Array;
  resolve: (value: WorkerValue) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
  /** Set when the pool itself retires a worker (timeout) and wants a replacement. */
  replace?: boolean;
}

/**
 * From TypeScript source (vitest, tsx) the worker is the .ts file run through tsx's loader; from the API's
 * esbuild bundle it is `vision-worker.js` emitted beside the bundle that contains this code.
 */
function spawnWorker(workerData: unknown): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const require = createRequire(here);
    // `--import tsx` in execArgv does not reach a worker's entry module on Node 20, so register tsx first.
    const tsxApi = pathToFileURL(
      path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
    ).href;
    const entry = new URL('./vision-worker.ts', here).href;
    const code = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { eval: true, workerData });
  }
  return new Worker(new URL('./vision-worker.js', here), { workerData });
}

export class WorkerPool {
  readonly ready: Promise<void>;
  backend = 'unknown';
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly durations: number[] = [];
  private readonly started = new Map<number, number>();

  constructor(private readonly options: WorkerPoolOptions) {
    const readies: Promise<void>[] = [];
    for (let i = 0; i < options.size; i++) readies.push(this.addSlot());
    this.ready = Promise.all(readies).then(() => undefined);
    // Callers that never await `ready` must not crash the process with an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  get readyWorkers(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  get queued(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.slots.filter((s) => s.job).length;
  }

  private addSlot(): Promise<void> {
    return new Promise((resolve, reject) => {
      const slot: Slot = { worker: spawnWorker(this.options.workerData), ready: false };
      this.slots.push(slot);
      slot.worker.on('message', (message: WorkerResponse) => {
        if (message.type === 'ready') {
          slot.ready = true;
          this.backend = message.backend;
          resolve();
          this.pump();
        } else if (message.type === 'failed') {
          reject(reviveError(message.error));
          this.removeSlot(slot);
        } else {
          this.finish(slot, message.ok ? { value: message.value } : { error: reviveError(message.error) });
        }
      });
      slot.worker.on('error', (error) => {
        if (!slot.ready) reject(error);
        this.finish(slot, { error });
      });
      slot.worker.on('exit', () => {
        const wasReady = slot.ready || slot.replace;
        slot.ready = false;
        this.finish(slot, { error: new Error('The vision worker stopped unexpectedly.') });
        this.removeSlot(slot);
        // Replace a worker that died in service; one that never started would only crash-loop.
        if (wasReady && !this.closed) void this.addSlot().catch(() => undefined);
      });
    });
  }

  private removeSlot(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private finish(slot: Slot, outcome: { value?: WorkerValue; error?: Error }): void {
    const job = slot.job;
    if (!job) return;
    slot.job = undefined;
    clearTimeout(slot.timer);
    const start = this.started.get(job.id);
    this.started.delete(job.id);
    if (start !== undefined) {
      this.durations.push(performance.now() - start);
      if (this.durations.length > 50) this.durations.shift();
    }
    if (outcome.error) job.reject(outcome.error);
    else job.resolve(outcome.value!);
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job || !this.queue.length) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      this.started.set(job.id, performance.now());
      slot.timer = setTimeout(() => {
        slot.ready = false;
        slot.replace = true;
        this.finish(slot, { error: new VisionInputError('analysis_timeout') });
        void slot.worker.terminate();
      }, this.options.jobTimeoutMs);
      // A private copy is transferred: the caller's buffer (often a Buffer pool slice) stays usable.
      const copy = new Uint8Array(job.bytes.byteLength);
      copy.set(job.bytes);
      const request: WorkerRequest = { id: job.id, op: job.op, bytes: copy.buffer };
      slot.worker.postMessage(request, [copy.buffer]);
    }
  }

  /** Mean recent job time in seconds: the basis of Retry-After. */
  private averageSeconds(): number {
    if (!this.durations.length) return 1;
    return this.durations.reduce((a, b) => a + b, 0) / this.durations.length / 1000;
  }

  run(op: WorkerOp, bytes: Uint8Array): Promise<WorkerValue> {
    if (this.closed) return Promise.reject(new Error('The vision engine is closed.'));
    if (this.queue.length >= this.options.maxQueue) {
      const waves = (this.queue.length + this.running + 1) / Math.max(1, this.options.size);
      return Promise.reject(new VisionBusyError(Math.max(1, Math.ceil(waves * this.averageSeconds()))));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, op, bytes, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The vision engine is closed.'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
