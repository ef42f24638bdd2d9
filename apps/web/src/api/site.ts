import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from './client';

export interface SiteConfig {
  support_email: string;
  /** What this installation offers; the credit-card check exists only where Stripe is configured. */
  capabilities: { card_check: { publishable_key: string; stripe_js_url: string } | null };
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, { ok: boolean; [detail: string]: unknown }>;
}

/** The slice of an OpenAPI 3.1 document the reference page renders. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
}

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Array<Record<string, string[]>>;
  /** The account kinds whose session token the endpoint accepts. */
  'x-account-kinds'?: string[];
  parameters?: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export const siteConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['site-config'],
    queryFn: ({ signal }) => apiFetch<SiteConfig>('/site-config', { auth: 'none', signal }),
    staleTime: Infinity,
  });

/** What the appliance serves of the partner SDK (GET /sdk/index.json): the version and the npm install line. */
export interface SdkDownloads {
  version: string;
  tarball: { url: string; integrity: string };
  browser_module: { url: string; integrity: string };
  install: string;
}

export const sdkDownloadsQueryOptions = () =>
  queryOptions({
    queryKey: ['sdk-downloads'],
    queryFn: ({ signal }) => apiFetch<SdkDownloads>('/sdk/index.json', { auth: 'none', root: true, signal }),
    staleTime: Infinity,
  });

export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ['openapi'],
    queryFn: ({ signal }) => apiFetch<OpenApiDocument>('/openapi.json', { auth: 'none', signal }),
    staleTime: 5 * 60_000,
  });

/** /readyz answers 503 with the same body when a component is down: that is status data, not a failed call. */
export const readinessQueryOptions = () =>
  queryOptions({
    queryKey: ['readyz'],
    queryFn: ({ signal }) =>
      apiFetch<Readiness>('/readyz', { auth: 'none', root: true, signal, acceptStatus: [503] }),
    refetchInterval: 30_000,
  });
