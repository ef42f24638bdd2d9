import Router from '@koa/router';
import Koa from 'koa';
import supertest from 'supertest';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { errorEnvelope } from './errors';
import { NO_STORE, routes } from './route';

function app(router: Router): supertest.Agent {
  const koa = new Koa();
  koa.use(errorEnvelope());
  koa.use(async (ctx, next) => {
    // A JSON body without the app's parser: enough for these routes.
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk);
    if (chunks.length > 0) ctx.request.body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    await next();
  });
  koa.use(router.routes());
  return supertest.agent(koa.callback());
}

describe('routes()', () => {
  it('mounts the description, the guards, validate() and the handler, in that order', () => {
    const router = new Router();
    const guard: Koa.Middleware = (_ctx, next) => next();
    const query = v.object({ q: v.string() });
    routes(router, { tag: 'Site', guards: [guard] }).get('/things', {
      summary: 'List things',
      responses: { 200: { description: 'Things' } },
      input: { query },
      handler: () => [],
    });
    const stack = router.stack[0]?.stack as Array<Koa.Middleware & { doc?: unknown; schemas?: unknown }>;
    expect(stack).toHaveLength(4);
    expect(stack[0]?.doc).toEqual({
      tag: 'Site',
      summary: 'List things',
      responses: { 200: { description: 'Things' } },
    });
    expect(stack[1]).toBe(guard);
    expect(stack[2]?.schemas).toEqual({ query });
  });

  it('hands the handler the validated input and answers with what it returns, under the declared status', async () => {
    const router = new Router();
    routes(router, { tag: 'Site' }).post('/things/:id', {
      summary: 'Rename a thing',
      responses: { 201: { description: 'Renamed' } },
      input: {
        params: v.object({ id: v.pipe(v.string(), v.transform(Number)) }),
        body: v.object({ name: v.pipe(v.string(), v.trim()) }),
      },
      status: 201,
      handler: ({ params, body }) => ({ id: params.id + 1, name: body.name }),
    });
    const answer = await app(router).post('/things/41').send({ name: '  box ' });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: 42, name: 'box' });
  });

  it('refuses invalid input with 422 before the handler runs', async () => {
    const router = new Router();
    let ran = false;
    routes(router, { tag: 'Site' }).post('/things', {
      summary: 'Add a thing',
      responses: { 200: { description: 'Added' } },
      input: { body: v.object({ name: v.string('Name is required') }) },
      handler: () => {
        ran = true;
        return {};
      },
    });
    const answer = await app(router).post('/things').send({});
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ path: 'name', message: 'Name is required' }]);
    expect(ran).toBe(false);
  });

  it('sets the declared headers on error answers too, and leaves a body-less answer to the handler', async () => {
    const router = new Router();
    const route = routes(router, { tag: 'Site' });
    route.post('/secret', {
      summary: 'Make a secret',
      responses: { 200: { description: 'The secret' } },
      headers: NO_STORE,
      handler: () => {
        throw new AppError(409, 'conflict', 'Not now');
      },
    });
    route.delete('/things/:id', {
      summary: 'Delete a thing',
      responses: { 204: { description: 'Deleted' } },
      status: 204,
      handler: async () => {},
    });
    const refused = await app(router).post('/secret');
    expect(refused.status).toBe(409);
    expect(refused.headers['cache-control']).toBe('no-store');
    const deleted = await app(router).delete('/things/1');
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });
});
