/**
 * The machinery of scale-out.test.ts: a throwaway PostgreSQL database, server processes started as replicas on it,
 * and the round-robin reverse proxy that is their one public URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startServerProcess, type ServerProcess, stopProcess } from './server-process';

const ADMIN_URL =
  process.env.TEST_DATABASE_URL && /^postgres(ql)?:/.test(process.env.TEST_DATABASE_URL)
    ? process.env.TEST_DATABASE_URL
    : 'postgres://postgres@127.0.0.1:5432/postgres';

export const REPLICAS = 3;

export interface Replica extends ServerProcess {
  name: string;
  dataDir: string;
}

/** Every request the proxy forwarded: which replica answered which path, with which status. */
export type Served = Array<{ replica: string; path: string; status: number }>;

export async function admin<T>(work: (db: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

/** A throwaway database for the file on the PostgreSQL server at ADMIN_URL. */
export async function createDatabase(): Promise<{ name: string; url: string }> {
  const name = `attestly_scale_${randomBytes(6).toString('hex')}`;
  await admin((db) => db.query(`CREATE DATABASE ${name}`)).catch((error: unknown) => {
    throw new Error(
      `The scale-out test needs PostgreSQL (replicas share one database): none at ${ADMIN_URL} (${String(error)}). ` +
        'Start one there, or point TEST_DATABASE_URL at one.',
    );
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

/** Round robin over `replicas()`, one request each in turn, unless a test pins a request to one of them. */
export async function startProxy(
  replicasOf: () => Replica[],
  served: Served,
): Promise<{ proxy: Server; url: string }> {
  let next = 0;
  const proxy = createServer((incoming, outgoing) => {
    const replicas = replicasOf();
    const wanted = incoming.headers['x-test-replica'];
    const target =
      typeof wanted === 'string'
        ? replicas.find((replica) => replica.name === wanted)
        : replicas[next++ % Math.max(replicas.length, 1)];
    if (!target) {
      outgoing.writeHead(502).end();
      return;
    }
    const headers = { ...incoming.headers };
    delete headers['x-test-replica'];
    const forwarded = httpRequest(
      { host: '127.0.0.1', port: target.port, method: incoming.method, path: incoming.url, headers },
      (response) => {
        served.push({
          replica: target.name,
          path: String(incoming.url).split('?')[0] as string,
          status: response.statusCode ?? 0,
        });
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { proxy, url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
}

/** The environment of every replica: one database, one public URL, and one master key. */
export function replicaEnv(
  databaseUrl: string,
  publicUrl: string,
  receiverPort: number,
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ATTESTLY_PUBLIC_URL: publicUrl,
    // One key for every replica (from the Secret in Kubernetes): each derives the same cookie and token keys.
    ATTESTLY_MASTER_KEY: randomBytes(32).toString('hex'),
    ATTESTLY_PASSWORD_COST: '12',
    ATTESTLY_VISION: 'false',
    ATTESTLY_TRUST_PROXY: 'true',
    ATTESTLY_WEB_DIR: path.join(tmpdir(), 'attestly-no-web'),
    // The webhook receiver below listens on this machine, which deliveries may otherwise not reach.
    ATTESTLY_WEBHOOK_ALLOWLIST: `127.0.0.1:${receiverPort}`,
    // No mail capture here: partners start active instead of waiting for their e-mail link.
    ATTESTLY_PARTNER_INITIAL_STATUS: 'active',
  };
}

/** Starts REPLICAS processes at the same moment, each with its own data directory, as pods would be. */
export async function startReplicas(env: Record<string, string>): Promise<Replica[]> {
  return Promise.all(
    Array.from({ length: REPLICAS }, async (_, index) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `attestly-replica-${index}-`));
      const started = await startServerProcess({ ...env, ATTESTLY_DATA_DIR: dataDir }, 90_000);
      return { ...started, name: String.fromCharCode(65 + index), dataDir };
    }),
  );
}

export async function stopReplicas(replicas: Replica[]): Promise<void> {
  await Promise.all(replicas.map((replica) => stopProcess(replica.child)));
  for (const replica of replicas) rmSync(replica.dataDir, { recursive: true, force: true });
}

/** A request through the proxy pinned to one replica (the proxy strips the header). */
export function pinned(replica: Replica, url: string, init: RequestInit = {}) {
  return fetch(url, { ...init, headers: { ...(init.headers ?? {}), 'x-test-replica': replica.name } });
}

/** Waits until no media of the given cases is left (or 20 s pass); returns how many are left. */
export async function eventuallyPurged(databaseUrl: string, verificationIds: string[]): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const left = await admin(
      async (db) =>
        Number(
          (
            await db.query<{ count: string }>(
              'SELECT count(*) FROM verification_media WHERE verification_id = ANY($1::uuid[])',
              [verificationIds],
            )
          ).rows[0]?.count,
        ),
      databaseUrl,
    );
    if (left === 0 || Date.now() > deadline) return left;
    await sleep(200);
  }
}

/** The partner's receiver on `port`: records the event id of every delivery it gets. */
export async function startEventReceiver(port: number): Promise<{ receiver: Server; received: string[] }> {
  const received: string[] = [];
  const receiver = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on('end', () => {
      received.push(String(incoming.headers['attestly-event-id']));
      outgoing.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
  return { receiver, received };
}
