import { expect } from 'vitest';

/** Every error answer is the envelope of DESIGN.md §3, carrying the request id the response header names. */
export function expectEnvelope(
  response: { body: Record<string, unknown>; headers: Record<string, string> },
  code: string,
) {
  expect(response.body).toMatchObject({
    code,
    detail: expect.any(String),
    request_id: response.headers['x-request-id'],
  });
  expect(response.body.request_id).toEqual(expect.any(String));
  expect(JSON.stringify(response.body)).not.toMatch(/at .*\.ts:\d+|node_modules|stack/i);
}

/** The middle of a set of timings (ms). */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** How long `send` took to be answered (ms), once its answer has the expected status. */
export async function timed(send: () => PromiseLike<{ status: number }>, status: number) {
  const started = process.hrtime.bigint();
  const response = await send();
  expect(response.status).toBe(status);
  return Number(process.hrtime.bigint() - started) / 1e6;
}
