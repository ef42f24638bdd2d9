import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type Koa from 'koa';
import type * as v from 'valibot';
import { API_BASE_PATH } from '@attestly/contracts';
import { mountedRoutes, type MountedRoute } from './mounted-routes';
import { OPERATIONS, TAGS, type Operation } from './operations';
import { errorEnvelopeSchema } from './schemas';

/**
 * Request schemas are converted in "input" mode: the document describes what a client sends, before the server's
 * trimming and lower-casing. Checks that JSON Schema cannot express (custom `check`s) are left out rather than
 * failing the build; the server still enforces them and answers 422 with every problem listed.
 */
function schemaOf(schema: v.GenericSchema, mode: 'input' | 'output'): JsonSchema {
  const converted = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: mode, errorMode: 'ignore' });
  delete converted.$schema;
  return converted;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** An endpoint as documented: the route as mounted, and its description when operations.ts has one. */
interface Endpoint {
  method: string;
  path: string;
  route: MountedRoute | null;
  described: Operation | null;
}

/** Routes nobody has described yet are still listed, under a tag named after their first path segment. */
function fallbackTag(path: string): string {
  const segment = path.replace(API_BASE_PATH, '').split('/').find(Boolean) ?? 'other';
  const words = segment.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function parameters(endpoint: Endpoint, location: 'path' | 'query') {
  const schema = location === 'path' ? endpoint.route?.schemas.params : endpoint.route?.schemas.query;
  const properties = (schema ? schemaOf(schema, 'input').properties : undefined) ?? {};
  const required = schema ? (schemaOf(schema, 'input').required ?? []) : [];
  const names =
    location === 'path'
      ? [...endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string)
      : Object.keys(properties);
  return names.map((name) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: (properties as Record<string, JsonSchema>)[name] ?? { type: 'string' },
  }));
}

function responses(endpoint: Endpoint, secured: boolean) {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(
    endpoint.described?.responses ?? { 200: { description: 'Success' } },
  )) {
    const contentType = response.contentType ?? (response.schema ? 'application/json' : undefined);
    out[status] = {
      description: response.description,
      ...(contentType
        ? {
            content: {
              [contentType]: response.schema ? { schema: schemaOf(response.schema, 'output') } : {},
            },
          }
        : {}),
    };
  }
  const route = endpoint.route;
  if (route?.schemas.body || route?.schemas.params || route?.schemas.query) {
    out['422'] = errorResponse('Invalid fields: `errors` lists every problem');
  }
  if (endpoint.described?.multipart) {
    out['413'] = errorResponse('File too large');
    out['415'] = errorResponse('Wrong file type');
  }
  if (secured) out['401'] = errorResponse('Missing, expired or revoked token');
  if (endpoint.described?.limited) out['429'] = errorResponse('Rate limited; see the Retry-After header');
  return out;
}

function operationObject(endpoint: Endpoint) {
  const { route, described } = endpoint;
  const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const secured = route ? route.sessionKinds !== null : described?.security !== 'none';
  const body = described?.body ?? route?.schemas.body;
  const params = [...parameters(endpoint, 'path'), ...parameters(endpoint, 'query')];
  return {
    operationId: `${endpoint.method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ? c.toUpperCase() : ''))}`,
    tags: [described?.tag ?? fallbackTag(endpoint.path)],
    summary:
      described?.summary ?? `${endpoint.method.toUpperCase()} ${endpoint.path.replace(API_BASE_PATH, '')}`,
    ...(described?.description ? { description: described.description } : {}),
    security: secured ? [{ bearerAuth: [] }] : [],
    ...(route?.sessionKinds ? { 'x-account-kinds': route.sessionKinds } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              [described?.multipart ? 'multipart/form-data' : 'application/json']: {
                schema: schemaOf(body, 'input'),
              },
            },
          },
        }
      : {}),
    responses: responses(endpoint, secured),
  };
}

/**
 * The OpenAPI 3.1 document (JSON Schema 2020-12 dialect) of every route mounted on `app`, plus the described
 * endpoints served outside the routers' view. Built from the live app, so a new route appears without anyone
 * remembering to document it; operations.ts adds the words.
 */
export function buildOpenApiDocument(app: Koa, options: { publicUrl: string; version: string }) {
  const key = (method: string, path: string) => `${method} ${path}`;
  const described = new Map(
    OPERATIONS.map((operation) => [key(operation.method, operation.path), operation]),
  );
  const endpoints = new Map<string, Endpoint>();
  for (const route of mountedRoutes(app)) {
    endpoints.set(key(route.method, route.path), {
      method: route.method,
      path: route.path,
      route,
      described: described.get(key(route.method, route.path)) ?? null,
    });
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints.values()) {
    const item = (paths[endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')] ??= {});
    item[endpoint.method] = operationObject(endpoint);
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { tags: string[] }).tags[0]),
    ),
  );
  const tags = [
    ...TAGS.filter((tag) => usedTags.has(tag.name)),
    ...[...usedTags]
      .filter((name) => name && !TAGS.some((tag) => tag.name === name))
      .map((name) => ({ name: name as string })),
  ];
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Attestly API',
      version: options.version,
      description:
        'REST API of a self-hosted Attestly appliance. Errors share one envelope: `{detail, code, errors?, request_id}`; `detail` is the message to show a person.',
    },
    servers: [{ url: options.publicUrl }],
    tags,
    paths,
    components: {
      schemas: { Error: schemaOf(errorEnvelopeSchema, 'output') },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Opaque session token from a sign-in endpoint; its prefix names the account kind (`x-account-kinds`).',
        },
      },
    },
  };
}
