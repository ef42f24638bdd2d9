import { describe, expect, it } from 'vitest';
import { runtimeCheck } from '../src/modules/operators/doctor/service';

describe('attestly doctor: the Node.js runtime check', () => {
  it.each([
    ['24.11.1', 'pass'],
    ['22.12.0', 'pass'],
    ['22.11.0', 'warn'],
    ['20.20.2', 'warn'],
    ['20.19.0', 'warn'],
    ['20.18.3', 'fail'],
    ['18.20.4', 'fail'],
  ])('Node.js %s: %s', (version, status) => {
    const outcome = runtimeCheck(version);
    expect(outcome.status).toBe(status);
    expect(outcome.detail).toContain(version);
    if (status !== 'pass') expect(outcome.hint).toMatch(/Node\.js 22\.12\.0 or later/);
  });
});
