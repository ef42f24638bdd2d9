import { describe, expect, it } from 'vitest';
import {
  explainGap,
  kindOfWork,
  summarisePhase,
  type CpuProfile,
  type ProfiledSide,
} from '../bench/profile-gap';

/** A profile sampled every 100 µs from t = 0, each sample in the frame named by `frames[i]`. */
function profile(frames: string[]): CpuProfile {
  const urls: Record<string, string> = {
    idle: '',
    sqlite: 'file:///app/node_modules/better-sqlite3/lib/methods/wrappers.js',
    http: 'node:_http_outgoing',
    provider: 'file:///app/node_modules/oidc-provider/lib/models/payload.js',
    koa: 'file:///app/node_modules/koa/lib/application.js',
  };
  const names = Object.keys(urls);
  return {
    nodes: names.map((name, index) => ({
      id: index + 1,
      callFrame: {
        functionName: name === 'idle' ? '(idle)' : name,
        url: urls[name] as string,
        lineNumber: 0,
        columnNumber: 0,
      },
    })),
    startTime: 0,
    samples: frames.map((frame) => names.indexOf(frame) + 1),
    timeDeltas: frames.map(() => 100),
  };
}

function side(name: string, frames: string[], phases: ProfiledSide['phases']): ProfiledSide {
  return { name, pid: 1, phases, profile: profile(frames) };
}

describe('the OIDC bench profile gap', () => {
  it('sums a phase over its slices and counts only samples inside them', () => {
    // Samples at 100, 200, … µs. Slices [100, 300) and [500, 700) hold samples 1–2 and 5–6.
    const ours = side(
      'ours',
      ['sqlite', 'http', 'koa', 'provider', 'sqlite', 'idle', 'provider'],
      [
        { name: 'flow', start_us: 100, end_us: 300, operations: 1 },
        { name: 'flow', start_us: 500, end_us: 700, operations: 1 },
        { name: 'userinfo', start_us: 300, end_us: 500, operations: 4 },
      ],
    );
    const flow = summarisePhase(ours, 'flow');
    expect(flow?.operations).toBe(2);
    // sqlite, http, sqlite counted; the idle sample is not work.
    expect(flow?.total).toBe(300);
    expect(flow?.groups.get('better-sqlite3')).toBe(200);
    expect(flow?.groups.get('node internals')).toBe(100);
    expect(summarisePhase(ours, 'userinfo')?.total).toBe(200);
    expect(summarisePhase(ours, 'introspection')).toBeNull();
  });

  it('explains the gap by kind of work, the largest difference first', () => {
    const spans = [{ name: 'flow', start_us: 0, end_us: 10_000, operations: 2 }];
    const ours = summarisePhase(
      side('ours', ['sqlite', 'sqlite', 'sqlite', 'http', 'provider'], spans),
      'flow',
    );
    const bare = summarisePhase(side('bare', ['http', 'provider', 'provider'], spans), 'flow');
    if (!ours || !bare) throw new Error('both sides ran the phase');
    const lines = explainGap(ours, bare, 'flows 0.6× bare');
    expect(lines[0]).toBe(
      "flows 0.6× bare: 250 µs of main-thread CPU per operation against bare's 150 (+100), by kind of work (ours · bare):",
    );
    expect(lines.slice(1).map((line) => line.trim())).toEqual([
      '+150  database: statements, drivers, row conversion (150 · 0)',
      '−50  oidc-provider and jose (50 · 100)',
    ]);
  });

  it('sorts groups into the kinds of work the bare servers do not do', () => {
    expect(kindOfWork('ours: src/db/database.ts')).toBe('database: statements, drivers, row conversion');
    expect(kindOfWork('pg')).toBe('database: statements, drivers, row conversion');
    expect(kindOfWork('ours: src/oidc/adapter.ts')).toMatch(/^our provider glue/);
    expect(kindOfWork('ours: src/modules/shared/audit/service.ts')).toBe('audit trail');
    expect(kindOfWork('pino')).toBe('request id and access log');
    expect(kindOfWork('prom-client')).toBe('request metrics');
    expect(kindOfWork('ours: src/modules/users/accounts/routes.ts')).toMatch(/^our routes/);
    expect(kindOfWork('@koa/router')).toMatch(/^Koa/);
    expect(kindOfWork('writev')).toMatch(/^Node/);
  });
});
