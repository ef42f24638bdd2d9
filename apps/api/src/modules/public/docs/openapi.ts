import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type Koa from 'koa';
import type * as v from 'valibot';
import { API_BASE_PATH, API_KEY_HEADER, errorEnvelopeSchema } from '@attestly/contracts';
import { TAGS } from '../../../middleware/describe';
import { mountedRoutes, type MountedRoute } from './mounted-routes';

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

/** Routes nobody has described yet are still listed (a test fails on them), under their first path segment. */
function fallbackTag(path: string): string {
  const segment = path.replace(API_BASE_PATH, '').split('/').find(Boolean) ?? 'other';
  const words = segment.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function parameters(route: MountedRoute, location: 'path' | 'query') {
  const schema = location === 'path' ? route.schemas.params : route.schemas.query;
  const converted = schema ? schemaOf(schema, 'input') : null;
  const properties = (converted?.properties ?? {}) as Record<string, JsonSchema>;
  const required = converted?.required ?? [];
  const names =
    location === 'path'
      ? [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string)
      : Object.keys(properties);
  return names.map((name) => ({
    name,
    in: location,
    required: location === 'path' || required.includes(name),
    schema: properties[name] ?? { type: 'string' },
  }));
}

const secured = (route: MountedRoute) => route.sessionKinds !== null;

function responses(route: MountedRoute) {
  const { doc } = route;
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(doc?.responses ?? { 200: { description: 'Success' } })) {
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
  // Answers the route's own middleware imply, unless it describes them itself.
  const implied: Array<[number, boolean, string]> = [
    [
      422,
      !!(route.schemas.body || route.schemas.params || route.schemas.query),
      'Invalid fields: `errors` lists every problem',
    ],
    [413, !!doc?.multipart, 'File too large'],
    [415, !!doc?.multipart, 'Wrong file type'],
    [
      401,
      secured(route),
      route.apiKey ? 'Missing, expired or revoked token or API key' : 'Missing, expired or revoked token',
    ],
    [429, route.limited, 'Rate limited; see the Retry-After header'],
  ];
  for (const [status, applies, description] of implied) {
    if (applies && !out[status]) out[status] = errorResponse(description);
  }
  return out;
}

function operationObject(route: MountedRoute) {
  const { doc } = route;
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const body = doc?.body ?? route.schemas.body;
  const params = [...parameters(route, 'path'), ...parameters(route, 'query')];
  return {
    operationId: `${route.method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ? c.toUpperCase() : ''))}`,
    tags: [doc?.tag ?? fallbackTag(route.path)],
    summary: doc?.summary ?? `${route.method.toUpperCase()} ${route.path.replace(API_BASE_PATH, '')}`,
    ...(doc?.description ? { description: doc.description } : {}),
    security: secured(route) ? [{ bearerAuth: [] }, ...(route.apiKey ? [{ apiKey: [] }] : [])] : [],
    ...(route.sessionKinds ? { 'x-account-kinds': route.sessionKinds } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              [doc?.multipart ? 'multipart/form-data' : 'application/json']: {
                schema: schemaOf(body, 'input'),
              },
            },
          },
        }
      : {}),
    responses: responses(route),
  };
}

/**
 * The OpenAPI 3.1 document (JSON Schema 2020-12 dialect) of every route mounted on `app`, built from the routes
 * alone: each route's `describeRoute()` gives the words and answers, its `validate()` the parameters and body, its
 * session check the security. A route that exists is listed; a listed route exists.
 */
export function buildOpenApiDocument(app: Koa, options: { publicUrl: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of mountedRoutes(app)) {
    const item = (paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')] ??= {});
    item[route.method] = operationObject(route);
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item).map((op) => (op as { tags: string[] }).tags[0] as string),
    ),
  );
  const tags = [
    ...TAGS.filter((tag) => usedTags.has(tag.name)),
    ...[...usedTags].filter((name) => !TAGS.some((tag) => tag.name === name)).map((name) => ({ name })),
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
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description:
            'A partner API key (`atk_test_…` or `atk_live_…`) for server-to-server calls, where a route accepts one instead of a partner session.',
        },
      },
    },
  };
}
