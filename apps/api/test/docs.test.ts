import Router from '@koa/router';
import Koa from 'koa';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSession } from '../src/middleware/auth';
import { validate } from '../src/middleware/validate';
import supertest from 'supertest';
import {
  errorEnvelopeSchema,
  loginResponseSchema,
  messageSchema,
  sessionListSchema,
  userProfileSchema,
} from '@attestly/contracts';
import { AppError } from '../src/errors';
import { errorEnvelope } from '../src/middleware/errors';
import { rateLimit } from '../src/middleware/rate-limit';
import { checkAnswer, responseConformance } from '../src/modules/public/docs/conformance';
import { describeRoute, ok } from '../src/middleware/describe';
import { mountedRoutes, undescribedRoutes } from '../src/modules/public/docs/mounted-routes';
import { buildOpenApiDocument } from '../src/modules/public/docs/openapi';
import { createTestApp, signUp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  // With the OpenID Connect provider, as the server always runs: the OAuth interaction routes exist only then.
  t = await createTestApp({ env: { ATTESTLY_SUPPORT_EMAIL: 'help@verify.example.org' }, withOidc: true });
});
afterAll(async () => {
  await t.close();
});

describe('OpenAPI document', () => {
  it('is served as OpenAPI 3.1 with tags, servers and the bearer scheme', async () => {
    const response = await t.request.get('/api/v1/openapi.json').expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.servers).toEqual([{ url: t.config.publicUrl }]);
    expect(response.body.tags.map((tag: { name: string }) => tag.name)).toContain('Accounts');
    expect(response.body.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('lists every route the server mounts, including ones nobody has described yet', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const listed = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const mounted = mountedRoutes(t.app).map((route) => `${route.method} ${route.path}`);
    expect(mounted.length).toBeGreaterThan(20);
    expect(listed.sort()).toEqual([...new Set(mounted)].sort());
  });

  it('has a description (tag, summary, answers) on every route it mounts', () => {
    expect(undescribedRoutes(t.app), 'add describeRoute({...}) where these routes are mounted').toEqual([]);
  });

  it('marks the routes of the admin API, mounted behind router-level middleware, as needing an admin token', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const partners = body.paths['/api/v1/admin/partners'].get;
    expect(partners.tags).toEqual(['Admin: partners']);
    expect(partners.security).toEqual([{ bearerAuth: [] }]);
    expect(partners['x-account-kinds']).toEqual(['admin']);
    expect(partners.responses['401']).toBeDefined();
    const stats = body.paths['/api/v1/partners/stats'].get;
    expect(stats.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(body.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    const tagNames = (body.tags as Array<{ name: string }>).map((tag) => tag.name);
    const used = new Set(
      Object.values(body.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((item) =>
        Object.values(item).map((operation) => operation.tags[0]),
      ),
    );
    expect(tagNames.sort()).toEqual([...used].sort());
  });

  it('derives request bodies from the contracts schemas, with their limits and required fields', async () => {
    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const register = body.paths['/api/v1/users/register'].post;
    const schema = register.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['full_name', 'email', 'password']);
    expect(schema.properties.password).toMatchObject({ type: 'string', minLength: 8, maxLength: 256 });
    expect(schema.properties.email).toMatchObject({ format: 'email' });
    expect(register.security).toEqual([]);
    expect(register.tags).toEqual(['Accounts']);
    expect(register.responses['422'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const photo = body.paths['/api/v1/users/profile/photo'].post;
    expect(Object.keys(photo.requestBody.content)).toEqual(['multipart/form-data']);
    expect(photo.security).toEqual([{ bearerAuth: [] }]);
    expect(photo.responses['413']).toBeDefined();
    const profile = body.paths['/api/v1/users/profile'].put;
    expect(profile.security).toEqual([{ bearerAuth: [] }]);
    expect(profile['x-account-kinds']).toEqual(['user']);
    expect(profile.responses['401']).toBeDefined();
    const session = body.paths['/api/v1/users/sessions/{id}'].delete;
    expect(session.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
    ]);
  });

  it('describes responses that match what the server really answers', async () => {
    const { token, email, password } = await signUp(t, { rememberMe: true });
    const login = await t.request.post('/api/v1/users/login').send({ email, password }).expect(200);
    expect(v.safeParse(loginResponseSchema, login.body).issues).toBeUndefined();
    const profile = await t.request
      .get('/api/v1/users/profile')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(v.safeParse(userProfileSchema, profile.body).issues).toBeUndefined();
    const sessions = await t.request
      .get('/api/v1/users/sessions')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(v.safeParse(sessionListSchema, sessions.body).issues).toBeUndefined();

    const { body } = await t.request.get('/api/v1/openapi.json').expect(200);
    const documented =
      body.paths['/api/v1/users/profile'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(documented.properties).sort()).toEqual(Object.keys(profile.body).sort());
    expect(documented.properties.age_verified).toEqual({ type: 'boolean' });
  });
});

describe('routes without a description', () => {
  it('still get their validation schemas, parameters and session requirement from the route itself', () => {
    const app = new Koa();
    const router = new Router({ prefix: '/api/v1' });
    router.post(
      '/widgets/:id',
      requireSession(t.services.sessions, ['partner']),
      validate({
        params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
        body: v.object({ name: v.pipe(v.string(), v.maxLength(40)) }),
      }),
      (ctx) => {
        ctx.body = {};
      },
    );
    app.use(router.routes());
    const document = buildOpenApiDocument(app, { publicUrl: 'http://x.test', version: '0' });
    // The document is plain JSON; this test reads it as such.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const operation = document.paths['/api/v1/widgets/{id}']?.post as Record<string, any>;
    expect(operation.tags).toEqual(['Widgets']);
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
    expect(operation['x-account-kinds']).toEqual(['partner']);
    expect(operation.parameters[0]).toMatchObject({ name: 'id', in: 'path', schema: { format: 'uuid' } });
    expect(operation.requestBody.content['application/json'].schema.properties.name).toEqual({
      type: 'string',
      maxLength: 40,
    });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
  });

  it('list 429 when they mount a rate limit, whether or not their description says so', () => {
    const app = new Koa();
    const router = new Router({ prefix: '/api/v1' });
    const limited = rateLimit(
      t.services.limiter,
      { name: 'docs-test', limit: 1, windowMs: 60_000 },
      () => 'k',
    );
    router.post(
      '/limited',
      describeRoute({ tag: 'Site', summary: 'Limited', responses: { 200: ok('Done') } }),
      limited,
      (ctx) => {
        ctx.body = {};
      },
    );
    router.post(
      '/open',
      describeRoute({ tag: 'Site', summary: 'Open', responses: { 200: ok('Done') } }),
      (ctx) => {
        ctx.body = {};
      },
    );
    app.use(router.routes());
    const document = buildOpenApiDocument(app, { publicUrl: 'http://x.test', version: '0' });
    const responses = (path: string) =>
      Object.keys((document.paths[path]?.post as { responses: Record<string, unknown> }).responses);
    expect(responses('/api/v1/limited')).toContain('429');
    expect(responses('/api/v1/open')).not.toContain('429');
    expect(mountedRoutes(app).map((route) => [route.path, route.limited])).toEqual([
      ['/api/v1/limited', true],
      ['/api/v1/open', false],
    ]);
  });

  it('are reported by the check that keeps every mounted route described', () => {
    const app = new Koa();
    const router = new Router({ prefix: '/api/v1' });
    const nested = new Router({ prefix: '/gadgets' });
    nested.use(requireSession(t.services.sessions, ['admin']));
    nested.get('/', (ctx) => {
      ctx.body = {};
    });
    nested.delete(
      '/:id',
      describeRoute({ tag: 'Site', summary: 'Delete a gadget', responses: { 204: ok('Deleted') } }),
      (ctx) => {
        ctx.status = 204;
      },
    );
    router.use(nested.routes());
    router.get('/widgets', (ctx) => {
      ctx.body = [];
    });
    router.get(
      '/described',
      describeRoute({ tag: 'Site', summary: '  ', responses: { 200: ok('Nothing') } }),
      (ctx) => {
        ctx.body = {};
      },
    );
    router.put(
      '/described',
      describeRoute({ tag: 'Site', summary: 'Only fails', responses: { 404: ok('Not found') } }),
      (ctx) => {
        ctx.status = 404;
      },
    );
    app.use(router.routes());
    expect(undescribedRoutes(app).sort()).toEqual([
      'GET /api/v1/described',
      'GET /api/v1/gadgets',
      'GET /api/v1/widgets',
      'PUT /api/v1/described',
    ]);
    // The nested router's use() counts for its routes: the described one still needs an admin token.
    const deleteGadget = mountedRoutes(app).find((route) => route.method === 'delete');
    expect(deleteGadget).toMatchObject({ path: '/api/v1/gadgets/:id', sessionKinds: ['admin'] });
    expect(deleteGadget?.doc?.summary).toBe('Delete a gadget');
  });
});

describe('answers checked against the schema their route declares', () => {
  /** A small app with described routes whose handlers answer what the test tells them to. */
  async function probe(answer: { status: number; body?: unknown; error?: AppError }) {
    const app = new Koa();
    const router = new Router({ prefix: '/api/v1' });
    router.post(
      '/things',
      describeRoute({
        tag: 'Site',
        summary: 'Make a thing',
        responses: { 201: ok('Made', messageSchema), 204: ok('Nothing to make') },
      }),
      (ctx) => {
        if (answer.error) throw answer.error;
        ctx.status = answer.status;
        if (answer.body !== undefined) ctx.body = answer.body;
      },
    );
    const conformance = responseConformance(app);
    app.use(conformance.middleware);
    app.use(errorEnvelope());
    app.use(router.routes());
    await supertest(app.callback()).post('/api/v1/things');
    return conformance.mismatches;
  }

  it('accepts answers that match', async () => {
    expect(await probe({ status: 201, body: { message: 'made' } })).toEqual([]);
    expect(await probe({ status: 204 })).toEqual([]);
    expect(await probe({ status: 409, error: new AppError(409, 'thing.exists', 'Exists') })).toEqual([]);
  });

  it('reports a wrong field, an undeclared field, an undocumented status and a bad error body', async () => {
    const wrong = await probe({ status: 201, body: { message: 42 } });
    expect(wrong).toEqual([
      {
        request: 'POST /api/v1/things',
        route: 'POST /api/v1/things',
        status: 201,
        problems: [expect.stringMatching(/^message: Invalid type: Expected string/)],
      },
    ]);
    expect((await probe({ status: 201, body: { message: 'made', secret: 'x' } }))[0]?.problems).toEqual([
      'secret: not in the declared schema',
    ]);
    expect((await probe({ status: 200, body: { message: 'made' } }))[0]?.problems).toEqual([
      'status 200 is not among the documented answers',
    ]);
    expect((await probe({ status: 201 }))[0]?.problems).toEqual([
      'a JSON body is documented, but none was sent',
    ]);
    expect((await probe({ status: 204, body: { message: 'made' } }))[0]?.problems).toEqual([
      'a JSON body was sent, but none is documented',
    ]);
    expect((await probe({ status: 400, body: { error: 'no envelope' } }))[0]?.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^detail: /), expect.stringMatching(/^code: /)]),
    );
  });

  it('checks nested objects and arrays for undeclared fields, and dates as the client receives them', () => {
    const route = mountedRoutes(t.app).find(
      (item) => item.method === 'get' && item.path === '/api/v1/users/sessions',
    );
    expect(route).toBeDefined();
    const session = {
      id: '0b7f6d2e-8a39-4d8e-9d0a-2c1f3b4a5e6f',
      current: true,
      remember: false,
      ip_address: null,
      user_agent: null,
      created_at: new Date(),
      last_used_at: null,
      expires_at: new Date(),
    };
    expect(checkAnswer(route!, 200, { sessions: [session], total_count: 1 })).toEqual([]);
    expect(
      checkAnswer(route!, 200, { sessions: [session, { ...session, token: 'atu_x' }], total_count: 2 }),
    ).toEqual(['sessions[1].token: not in the declared schema']);
    expect(checkAnswer(route!, 401, { detail: 'Sign in', code: 'auth.missing_token' })).toEqual([]);
    expect(v.safeParse(errorEnvelopeSchema, { detail: 'x', code: 'y' }).success).toBe(true);
  });

  it('found nothing wrong in this file’s own requests so far', () => {
    expect(t.responsesChecked.count).toBeGreaterThan(5);
    expect(t.responseMismatches).toEqual([]);
  });
});

describe('site configuration', () => {
  it('gives the public site the configured support address and what it offers, nothing else', async () => {
    const response = await t.request.get('/api/v1/site-config').expect(200);
    // Without Stripe there is no card check to offer (issue 25 item 1).
    expect(response.body).toEqual({
      support_email: 'help@verify.example.org',
      capabilities: { card_check: null },
    });
  });

  it('needs no account', async () => {
    await t.request
      .get('/api/v1/site-config')
      .set('Authorization', 'Bearer atu_not-a-real-token')
      .expect(200);
  });
});
