'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- preloaded with `node --require` into worker threads, so it must be CommonJS */
/**
 * Network guard for the privacy test: loaded with `require` into the test process and, through a patched
 * `Worker`, preloaded (`--require`) into every worker thread started afterwards — the vision engine's inference
 * workers and tesseract.js's OCR worker included. In each thread it records every attempt to open a network
 * connection, resolve a name or start a child process, to the JSON-lines file named by ATTESTLY_NET_GUARD_LOG,
 * and blocks any connection that is not to the loopback interface. The test then reads the file.
 */
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const dgram = require('node:dgram');
const childProcess = require('node:child_process');
const workerThreads = require('node:worker_threads');
const { syncBuiltinESMExports } = require('node:module');

const LOG = process.env.ATTESTLY_NET_GUARD_LOG;
if (!LOG) throw new Error('network-guard: set ATTESTLY_NET_GUARD_LOG');

function log(entry) {
  fs.appendFileSync(
    LOG,
    `${JSON.stringify({ thread: workerThreads.threadId, main: workerThreads.isMainThread, ...entry })}\n`,
  );
}

function isLoopback(host) {
  if (host === undefined || host === null || host === '' || host === 'localhost') return true;
  const address = String(host)
    .replace(/^\[|\]$/g, '')
    .replace(/^::ffff:/i, '');
  return /^127\./.test(address) || address === '::1';
}

function blocked(what) {
  const error = new Error(`network guard: blocked ${what}`);
  error.code = 'ENETUNREACH';
  return error;
}

// TCP and everything built on it (TLS, HTTP, undici's fetch) ends in Socket.prototype.connect.
const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = args[0];
  const options = Array.isArray(first)
    ? first[0]
    : first !== null && typeof first === 'object'
      ? first
      : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options && options.path) {
    log({ kind: 'ipc', path: String(options.path) });
    return originalConnect.apply(this, args);
  }
  const host = options ? options.host : undefined;
  const allowed = isLoopback(host);
  log({ kind: 'connect', host: host ?? 'localhost', port: options ? options.port : undefined, allowed });
  if (!allowed) {
    process.nextTick(() => this.destroy(blocked(`connection to ${host}`)));
    return this;
  }
  return originalConnect.apply(this, args);
};

const originalLookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  const allowed = isLoopback(hostname);
  log({ kind: 'dns', host: hostname, allowed });
  if (!allowed) {
    const callback = rest[rest.length - 1];
    process.nextTick(() => callback(blocked(`lookup of ${hostname}`)));
    return {};
  }
  return originalLookup.call(this, hostname, ...rest);
};
const originalPromiseLookup = dns.promises.lookup;
dns.promises.lookup = async function guardedPromiseLookup(hostname, ...rest) {
  const allowed = isLoopback(hostname);
  log({ kind: 'dns', host: hostname, allowed });
  if (!allowed) throw blocked(`lookup of ${hostname}`);
  return originalPromiseLookup.call(this, hostname, ...rest);
};
for (const method of ['resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  const original = dns[method];
  dns[method] = function guardedResolve(hostname, ...rest) {
    log({ kind: 'dns', host: hostname, allowed: false });
    const callback = rest[rest.length - 1];
    process.nextTick(() => callback(blocked(`resolve of ${hostname}`)));
    return original && undefined;
  };
}

const originalSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(...args) {
  const host = args.find((arg, index) => index > 0 && typeof arg === 'string');
  const allowed = isLoopback(host);
  log({ kind: 'udp', host, allowed });
  if (!allowed) throw blocked(`UDP datagram to ${host}`);
  return originalSend.apply(this, args);
};

if (typeof globalThis.fetch === 'function') {
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async function guardedFetch(input, init) {
    const url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url);
    const allowed = url.protocol === 'data:' || url.protocol === 'file:' || isLoopback(url.hostname);
    log({ kind: 'fetch', url: url.protocol === 'data:' ? 'data:' : url.href, allowed });
    if (!allowed) throw blocked(`fetch of ${url.href}`);
    return originalFetch(input, init);
  };
}

// Child processes (ffmpeg decodes video): every spawn path ends in ChildProcess.prototype.spawn.
const originalSpawn = childProcess.ChildProcess.prototype.spawn;
childProcess.ChildProcess.prototype.spawn = function guardedSpawn(options) {
  log({ kind: 'spawn', file: options.file, args: options.args });
  return originalSpawn.call(this, options);
};

// Every worker started from here on loads this guard before its own code.
const OriginalWorker = workerThreads.Worker;
workerThreads.Worker = class GuardedWorker extends OriginalWorker {
  constructor(filename, options = {}) {
    super(filename, {
      ...options,
      execArgv: [...(options.execArgv ?? process.execArgv), '--require', __filename],
    });
    // Which code the new thread runs, so the test can tell the inference and OCR workers apart.
    log({ kind: 'worker', child: this.threadId, entry: String(filename).slice(0, 300) });
  }
};

syncBuiltinESMExports();
log({ kind: 'installed' });
