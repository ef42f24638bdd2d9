import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VisionBusyError, VisionInputError, reviveError } from './errors';
import type { FramesMeta, WorkerOp, WorkerRequest, WorkerResponse, WorkerValue } from './worker-protocol';

export interface WorkerPoolOptions {
  size: number;
  /** Jobs waiting beyond the ones running; more are refused with VisionBusyError. */
  maxQueue: number;
  /** A job running longer is abandoned and its worker replaced, so one bad file cannot wedge a thread. */
  jobTimeoutMs: number;
  workerData: unknown;
}

/** One unit of work for a worker. */
export interface PoolJob {
  op: WorkerOp;
  bytes: Uint8Array;
  frames?: FramesMeta;
  /**
   * The caller hands over `bytes` (a whole ArrayBuffer it will not touch again), so it is transferred as is
   * instead of copied first.
   */
  owned?: boolean;
}

interface Job extends PoolJob {
  id: number;
  /** Jobs of one request share this; the queue limit counts requests, not jobs. */
  request: number;
  resolve: (value: WorkerValue) => void;
  reject: (error: Error) => void;
}

/**
 * A place in the queue held while a request is prepared outside the pool (a video being decoded by ffmpeg), so a
 * burst of uploads is refused before it spawns one decoder each.
 */
export interface Reservation {
  /** The request the reservation admits: later jobs of the same request pass it again. */
  readonly request: number;
  release(): void;
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
  private nextRequest = 1;
  private reservations = 0;
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

  get size(): number {
    return this.options.size;
  }

  /** Requests waiting for a worker (a fanned-out video counts once), including reserved places. */
  get queued(): number {
    return new Set(this.queue.map((j) => j.request)).size + this.reservations;
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
      // A private copy is transferred unless the caller handed its buffer over: the caller's buffer (often a
      // Buffer pool slice) stays usable.
      const whole =
        job.owned &&
        job.bytes.byteOffset === 0 &&
        job.bytes.byteLength === job.bytes.buffer.byteLength &&
        job.bytes.buffer instanceof ArrayBuffer;
      const buffer = whole ? (job.bytes.buffer as ArrayBuffer) : new Uint8Array(job.bytes).buffer;
      const request: WorkerRequest = { id: job.id, op: job.op, bytes: buffer, frames: job.frames };
      slot.worker.postMessage(request, [buffer]);
    }
  }

  /** Mean recent job time in seconds: the basis of Retry-After. */
  private averageSeconds(): number {
    if (!this.durations.length) return 1;
    return this.durations.reduce((a, b) => a + b, 0) / this.durations.length / 1000;
  }

  private busyError(): VisionBusyError {
    const waves = (this.queued + this.running + 1) / Math.max(1, this.options.size);
    return new VisionBusyError(Math.max(1, Math.ceil(waves * this.averageSeconds())));
  }

  run(op: WorkerOp, bytes: Uint8Array): Promise<WorkerValue> {
    if (this.closed) return Promise.reject(new Error('The vision engine is closed.'));
    if (this.queued >= this.options.maxQueue) return Promise.reject(this.busyError());
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request: this.nextRequest++, op, bytes, resolve, reject });
      this.pump();
    });
  }

  /** Holds a queue place for a request being prepared; throws VisionBusyError when the queue is full. */
  reserve(): Reservation {
    if (this.closed) throw new Error('The vision engine is closed.');
    if (this.queued >= this.options.maxQueue) throw this.busyError();
    this.reservations++;
    let held = true;
    return {
      request: this.nextRequest++,
      release: () => {
        if (held) this.reservations--;
        held = false;
      },
    };
  }

  /**
   * Runs the jobs of one request on whichever workers are free (a video's frames fan out across the pool) and
   * settles each one. The request takes one queue place: the `reservation` it holds, or a new one (refused with
   * VisionBusyError when the queue is full). `continuation` jobs belong to a request already admitted (pass its
   * reservation again) and go to the front of the queue, so finishing started work is not delayed behind new
   * arrivals.
   */
  runBatch(
    jobs: readonly PoolJob[],
    options: { reservation?: Reservation; continuation?: boolean } = {},
  ): Promise<PromiseSettledResult<WorkerValue>[]> {
    if (this.closed) {
      options.reservation?.release();
      return Promise.reject(new Error('The vision engine is closed.'));
    }
    if (!options.reservation && !options.continuation && this.queued >= this.options.maxQueue)
      return Promise.reject(this.busyError());
    const request = options.reservation?.request ?? this.nextRequest++;
    // Continuation jobs keep their own order at the front of the queue.
    let front = 0;
    const promises = jobs.map(
      (job) =>
        new Promise<WorkerValue>((resolve, reject) => {
          const entry: Job = { ...job, id: this.nextId++, request, resolve, reject };
          if (options.continuation) this.queue.splice(front++, 0, entry);
          else this.queue.push(entry);
        }),
    );
    options.reservation?.release();
    this.pump();
    return Promise.allSettled(promises);
  }

  /** Drops the jobs of a request that have not started (the request failed); running ones finish unobserved. */
  cancel(reservation: Reservation): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.request !== reservation.request) continue;
      this.queue.splice(i, 1);
      job.reject(new Error('cancelled'));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The vision engine is closed.'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
