import Router from '@koa/router';
import Koa from 'koa';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSession } from '../src/middleware/auth';
import { validate } from '../src/middleware/validate';
import { mountedRoutes } from '../src/modules/docs/mounted-routes';
import { buildOpenApiDocument } from '../src/modules/docs/openapi';
import { OPERATIONS } from '../src/modules/docs/operations';
import { loginResponseSchema, sessionListSchema, userProfileSchema } from '../src/modules/docs/schemas';
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

  it('describes only routes that exist', () => {
    const mounted = new Set(mountedRoutes(t.app).map((route) => `${route.method} ${route.path}`));
    const stale = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).filter(
      (route) => !mounted.has(route),
    );
    expect(stale, 'remove or fix these entries in apps/api/src/modules/docs/operations.ts').toEqual([]);
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
});

describe('site configuration', () => {
  it('gives the public site the configured support address and nothing else', async () => {
    const response = await t.request.get('/api/v1/site-config').expect(200);
    expect(response.body).toEqual({ support_email: 'help@verify.example.org' });
  });

  it('needs no account', async () => {
    await t.request
      .get('/api/v1/site-config')
      .set('Authorization', 'Bearer atu_not-a-real-token')
      .expect(200);
  });
});
