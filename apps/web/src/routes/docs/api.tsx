import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { openApiQueryOptions } from '../../api/site';
import { groupByTag, tagSlug, type Entry } from '../../components/docs/api-groups';
import { DocTitle } from '../../components/docs/doc-page';
import { SchemaView } from '../../components/docs/schema-view';
import { PublicPage } from '../../components/layout/public-page';
import { QueryState } from '../../components/ui/query-state';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/api')({ component: ApiReferencePage });

const METHOD_STYLES: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  put: 'bg-amber-100 text-amber-900',
  patch: 'bg-amber-100 text-amber-900',
  delete: 'bg-red-100 text-red-900',
};

function OperationView({ entry }: { entry: Entry }) {
  const { method, path, operation } = entry;
  const body = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
  const secured = operation.security.length > 0;
  return (
    <details id={operation.operationId} className="group rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer flex-wrap items-center gap-3 px-4 py-3">
        <span
          className={`w-16 rounded px-2 py-0.5 text-center font-mono text-xs font-bold uppercase ${METHOD_STYLES[method] ?? 'bg-slate-100'}`}
        >
          {method}
        </span>
        <code className="font-mono text-sm break-all text-slate-900">{path}</code>
        <span className="text-sm text-slate-700">{operation.summary}</span>
        {secured ? (
          <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">
            Bearer token{operation['x-account-kinds'] ? ` (${operation['x-account-kinds'].join(', ')})` : ''}
          </span>
        ) : null}
      </summary>
      <div className="space-y-5 border-t border-slate-200 px-4 py-4">
        {operation.description ? <p className="text-sm text-slate-800">{operation.description}</p> : null}
        {operation.parameters?.length ? (
          <div>
            <h4 className="text-sm font-semibold text-slate-900">Path parameters</h4>
            <ul className="mt-1 text-sm text-slate-800">
              {operation.parameters.map((parameter) => (
                <li key={parameter.name}>
                  <code className="font-mono">{parameter.name}</code> — {parameter.schema.type}
                  {parameter.schema.format ? ` (${parameter.schema.format})` : ''}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {body ? (
          <div>
            <h4 className="text-sm font-semibold text-slate-900">
              Request body <span className="font-normal text-slate-700">({body[0]})</span>
            </h4>
            {body[1].schema ? (
              <div className="mt-2">
                <SchemaView
                  schema={body[1].schema}
                  caption={`Request body of ${method.toUpperCase()} ${path}`}
                />
              </div>
            ) : null}
          </div>
        ) : null}
        <div>
          <h4 className="text-sm font-semibold text-slate-900">Responses</h4>
          <ul className="mt-2 space-y-3">
            {Object.entries(operation.responses).map(([status, response]) => {
              const content = response.content ? Object.entries(response.content)[0] : undefined;
              const schema = content?.[1].schema;
              return (
                <li key={status}>
                  <p className="text-sm text-slate-800">
                    <span
                      className={`mr-2 rounded px-1.5 py-0.5 font-mono text-xs font-bold ${status.startsWith('2') ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-900'}`}
                    >
                      {status}
                    </span>
                    {response.description}
                    {content && !schema ? <span className="text-slate-700"> ({content[0]})</span> : null}
                  </p>
                  {schema && !schema.$ref ? (
                    <div className="mt-2 pl-2">
                      <SchemaView
                        schema={schema}
                        caption={`${status} response of ${method.toUpperCase()} ${path}`}
                      />
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </details>
  );
}

function ApiReferencePage() {
  useDocumentTitle('API reference');
  const document = useQuery(openApiQueryOptions());
  return (
    <PublicPage>
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <DocTitle>API reference</DocTitle>
        <QueryState
          query={document}
          loadingLabel="Loading the API description…"
          errorFallback="Failed to load the API description"
        >
          {(spec) => (
            <>
              <p className="mt-4 max-w-3xl text-slate-700">{spec.info.description}</p>
              <p className="mt-2 text-sm text-slate-700">
                OpenAPI {spec.openapi} · version {spec.info.version} · base URL{' '}
                <code className="rounded bg-slate-100 px-1">{spec.servers[0]?.url}</code> ·{' '}
                <a
                  href="/api/v1/openapi.json"
                  className="font-medium text-indigo-700 underline hover:text-indigo-900"
                >
                  Download openapi.json
                </a>
              </p>
              <section
                id="authentication"
                aria-labelledby="auth-title"
                className="mt-8 rounded-xl bg-slate-50 p-5"
              >
                <h2 id="auth-title" className="text-lg font-semibold text-slate-900">
                  Authentication
                </h2>
                <p className="mt-2 text-sm text-slate-800">
                  Endpoints marked <em>Bearer token</em> need <code>Authorization: Bearer &lt;token&gt;</code>{' '}
                  with a session token from the sign-in endpoint. Errors answer{' '}
                  <code>{'{ detail, code, errors?, request_id }'}</code>; a 422 lists every invalid field in{' '}
                  <code>errors</code>, and a 429 carries <code>Retry-After</code>.
                </p>
              </section>
              <nav aria-label="API sections" className="mt-8 flex flex-wrap gap-2">
                {groupByTag(spec).map((group) => (
                  <a
                    key={group.name}
                    href={`#${tagSlug(group.name)}`}
                    className="rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-800 hover:bg-slate-50"
                  >
                    {group.name}
                  </a>
                ))}
              </nav>
              {groupByTag(spec).map((group) => (
                <section
                  key={group.name}
                  id={tagSlug(group.name)}
                  aria-labelledby={`${tagSlug(group.name)}-title`}
                  className="mt-10 scroll-mt-24"
                >
                  <h2 id={`${tagSlug(group.name)}-title`} className="text-2xl font-bold text-slate-900">
                    {group.name}
                  </h2>
                  {group.description ? <p className="mt-1 text-slate-700">{group.description}</p> : null}
                  <div className="mt-4 space-y-2">
                    {group.entries.map((entry) => (
                      <OperationView key={`${entry.method} ${entry.path}`} entry={entry} />
                    ))}
                  </div>
                </section>
              ))}
            </>
          )}
        </QueryState>
      </div>
    </PublicPage>
  );
}
