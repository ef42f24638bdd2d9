import type { JsonSchema } from '../../api/site';

/** A short type label for a JSON Schema: "string (email)", "string | null", "array of object"… */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? 'object';
  if (schema.anyOf) return schema.anyOf.map(typeLabel).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array' && schema.items) return `array of ${typeLabel(schema.items)}`;
  return schema.format ? `${type} (${schema.format})` : type;
}

/** Limits worth telling a developer: lengths, ranges, patterns, defaults. */
export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema.minLength !== undefined && schema.minLength > 1) out.push(`min length ${schema.minLength}`);
  if (schema.minLength === 1) out.push('not empty');
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/** The fields of an object schema as a table; nested objects are listed with dotted names. */
export function SchemaView({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const rows: Array<{ name: string; schema: JsonSchema; required: boolean }> = [];
  const walk = (node: JsonSchema, prefix: string) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const full = prefix ? `${prefix}.${name}` : name;
      rows.push({ name: full, schema: child, required: node.required?.includes(name) ?? false });
      if (child.properties) walk(child, full);
      if (child.items?.properties) walk(child.items, `${full}[]`);
    }
  };
  walk(schema, '');
  if (rows.length === 0) {
    return <p className="text-sm text-slate-700">{typeLabel(schema)}</p>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300 text-slate-800">
            <th scope="col" className="py-2 pr-4 font-semibold">
              Field
            </th>
            <th scope="col" className="py-2 pr-4 font-semibold">
              Type
            </th>
            <th scope="col" className="py-2 font-semibold">
              Rules
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-b border-slate-200 align-top">
              <td className="py-2 pr-4 font-mono text-xs text-slate-900">
                {row.name}
                {row.required ? <span className="ml-1 text-red-700">required</span> : null}
              </td>
              <td className="py-2 pr-4 font-mono text-xs text-slate-800">{typeLabel(row.schema)}</td>
              <td className="py-2 text-xs text-slate-700">
                {[...constraints(row.schema), row.schema.description].filter(Boolean).join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
