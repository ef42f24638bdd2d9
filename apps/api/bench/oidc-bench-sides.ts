/**
 * What the OIDC bench (oidc-bench.ts) drives on each server: one complete authorization-code flow, a request load
 * (autocannon), and the "side" each server becomes, with its flows, its loads and what each phase counted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { CookieJar as Jar } from '../test/http';
import { stopProcess } from '../test/server-process';
import { discover, type Endpoints, startProcess, type Target } from './oidc-bench-servers';

export const CLIENTS = 16;
const SCOPE = 'openid basic_info AGE_18';

const basic = (client: Target['client']) =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;

/**
 * One complete flow for a client whose session and consent exist: authorize (PKCE S256, state) → the provider's
 * redirects → code at the redirect URI → token exchange. Interactions are answered when they come up (first flow).
 */
export async function flow(
  target: Target,
  endpoints: Endpoints,
  jar: Jar,
): Promise<{ access_token: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const params = new URLSearchParams({
    client_id: target.client.client_id,
    response_type: 'code',
    redirect_uri: target.client.redirect_uri,
    scope: SCOPE,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let location = `${endpoints.authorization_endpoint}?${params}`;
  for (let hop = 0; !location.startsWith(target.client.redirect_uri); hop += 1) {
    if (hop > 10) throw new Error(`${target.name}: too many redirects`);
    const url = new URL(location);
    if (url.pathname.startsWith('/oauth/') || url.pathname.startsWith('/interaction/')) {
      location = await target.interact(jar, location);
      continue;
    }
    const response = await jar.fetch(location);
    await response.arrayBuffer();
    const next = response.headers.get('location');
    if (!next) throw new Error(`${target.name}: no redirect from ${location} (${response.status})`);
    location = new URL(next, location).href;
  }
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (!code || callback.searchParams.get('state') !== state)
    throw new Error(`${target.name}: bad callback ${location}`);
  const response = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(target.client) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: target.client.redirect_uri,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !tokens.access_token)
    throw new Error(`${target.name}: token ${response.status}`);
  return { access_token: tokens.access_token };
}

export function cannon(
  options: autocannon.Options,
  onResponse?: (milliseconds: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    // autocannon emits (client, status, bytes, time); its type declaration leaves the client out.
    if (onResponse) {
      (instance as NodeJS.EventEmitter).on('response', (...args: unknown[]) =>
        onResponse(Number(args[args.length - 1])),
      );
    }
  });
}

/** The request loads (autocannon, CLIENTS connections) a side may serve. */
export type LoadName = 'userinfo' | 'introspection' | 'profile' | 'healthz';
export type LoadRequest = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'body'>;

/**
 * One server as the bench loads it: its flows (ours and the bare provider), the request loads it serves, and what
 * each phase has counted so far, summed over the slices it ran.
 */
export interface Side {
  name: string;
  pid?: number;
  flow?: { target: Target; endpoints: Endpoints; jars: Jar[] };
  loads: Partial<Record<LoadName, LoadRequest>>;
  /** Ours on PostgreSQL: the database server's CPU time is counted too (postgresCpuMs). */
  postgres: boolean;
  tallies: Map<string, Tally>;
  phases: Phases;
  /** Ours: the database round-trip counter (Target.roundTrips); null once it answered nothing (an older build). */
  roundTrips?: (() => Promise<number>) | null;
  /** Ours on PostgreSQL without autovacuum: what autovacuum's ANALYZE would do, between slices (Target.analyze). */
  analyze?: () => Promise<void>;
  stop(): Promise<void>;
}

export interface Tally {
  operations: number;
  errors: number;
  non2xx: number;
  seconds: number;
  cpuMs: number;
  /** PostgreSQL's processes, for a side on PostgreSQL. */
  databaseCpuMs: number;
  /** Round trips to the database (ours; NaN when the server does not count them). */
  roundTrips: number;
  latencies: number[];
}

export const PROFILE_ROUTE = '/api/v1/users/profile';

/** A side for a provider (ours or bare): each client signs in once and consents; later flows reuse both. */
export async function providerSide(
  target: Target,
  profileDir: string | undefined,
  postgres = false,
): Promise<Side> {
  const endpoints = await discover(target);
  const jars = Array.from({ length: CLIENTS }, () => new Jar());
  for (const jar of jars) await flow(target, endpoints, jar);
  return {
    name: target.name,
    pid: target.pid,
    flow: { target, endpoints, jars },
    loads: {},
    postgres,
    tallies: new Map(),
    phases: new Phases(target, profileDir),
    roundTrips: target.roundTrips,
    analyze: target.analyze,
    stop: () => target.stop(),
  };
}

/**
 * A provider side's request loads, with a token from a fresh flow: taken after the flow phase, because the bare
 * provider's memory adapter is an LRU of 1,000 entries that the flows cycle through. Each load must measure
 * successful answers (an active token, not a cheap refusal): one of each is checked first.
 */
export async function prepareLoads(side: Side): Promise<void> {
  const { target, endpoints, jars } = side.flow as NonNullable<Side['flow']>;
  const token = (await flow(target, endpoints, jars[0] as Jar)).access_token;
  const bearer = { authorization: `Bearer ${token}` };
  const introspection = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(target.client) },
    body: new URLSearchParams({ token }).toString(),
  } as const;
  side.loads = {
    userinfo: { url: endpoints.userinfo_endpoint, headers: bearer },
    introspection: { url: endpoints.introspection_endpoint, ...introspection },
  };
  if (target.api) {
    side.loads.profile = {
      url: `${target.api.base}${PROFILE_ROUTE}`,
      headers: { authorization: `Bearer ${target.api.token}` },
    };
    // The floor under every route of ours: /healthz does no work, so its cost is the shared middleware stack alone.
    side.loads.healthz = { url: `${target.api.base}/healthz` };
  }
  const userinfo = await fetch(endpoints.userinfo_endpoint, { headers: bearer });
  if (userinfo.status !== 200)
    throw new Error(`${side.name} userinfo: ${userinfo.status} ${await userinfo.text()}`);
  const answer = await fetch(endpoints.introspection_endpoint, introspection);
  const active = ((await answer.json().catch(() => ({}))) as { active?: boolean }).active;
  if (answer.status !== 200 || active !== true)
    throw new Error(`${side.name} introspection: ${answer.status}`);
}

/**
 * The bare Koa JSON route (bare-koa.ts), loaded like our GET /users/profile, and again in turn with our /healthz:
 * each of our two routes is compared with bare Koa measured in the same rounds.
 */
export async function bareKoaSide(command: string[], profileDir: string | undefined): Promise<Side> {
  const { child, port } = await startProcess(
    command,
    { NODE_ENV: 'production' },
    /"port":(\d+)[^\n]*bare koa/,
  );
  const route = {
    url: `http://127.0.0.1:${port}${PROFILE_ROUTE}`,
    headers: { authorization: 'Bearer bench' },
  };
  return {
    name: 'bare-koa',
    pid: child.pid,
    loads: { profile: route, healthz: route },
    postgres: false,
    tallies: new Map(),
    phases: new Phases({ name: 'bare-koa', pid: child.pid }, profileDir),
    stop: async () => {
      await stopProcess(child);
    },
  };
}

export function tally(side: Side, phase: string): Tally {
  let found = side.tallies.get(phase);
  if (!found) {
    found = {
      operations: 0,
      errors: 0,
      non2xx: 0,
      seconds: 0,
      cpuMs: 0,
      databaseCpuMs: 0,
      roundTrips: 0,
      latencies: [],
    };
    side.tallies.set(phase, found);
  }
  return found;
}
/**
 * When profiling, the time spans (monotonic clock, the CPU profile's time base on Linux) of the slices of each
 * phase and how many operations each served, written beside the profiles as `phases-<pid>.json`: profile-gap.ts
 * reads them to give CPU time per operation, ours against bare.
 */
export class Phases {
  private readonly list: { name: string; start_us: number; end_us: number; operations: number }[] = [];
  constructor(
    private readonly target: Pick<Target, 'name' | 'pid'>,
    private readonly dir: string | undefined,
  ) {}
  /** The monotonic clock in µs. */
  static now(): number {
    return Number(process.hrtime.bigint() / 1000n);
  }
  /** A slice of `name` that began at `startUs` (Phases.now()) and ends now. */
  add(name: string, startUs: number, operations: number) {
    this.list.push({ name, start_us: startUs, end_us: Phases.now(), operations });
  }
  write() {
    if (!this.dir || this.target.pid === undefined) return;
    writeFileSync(
      path.join(this.dir, `phases-${this.target.pid}.json`),
      JSON.stringify({ name: this.target.name, pid: this.target.pid, phases: this.list }),
    );
  }
}
