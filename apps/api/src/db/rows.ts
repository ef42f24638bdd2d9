/** SQLite returns dates as text and booleans as 0/1; PostgreSQL returns Date and boolean. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value : new Date(value as string);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/**
 * Converts a raw row to the attribute types a Sequelize model declares (DATE → Date, BOOLEAN → boolean), so rows
 * read through `Database.read` can be presented like model instances.
 */
export function fromRow<T>(
  model: { getAttributes(): Record<string, { type: unknown }> },
  row: Record<string, unknown>,
): T {
  const out: Record<string, unknown> = { ...row };
  for (const [name, attribute] of Object.entries(model.getAttributes())) {
    const key = (attribute.type as { key?: string }).key;
    if (!(name in out)) continue;
    if (key === 'DATE') out[name] = toDate(out[name]);
    else if (key === 'BOOLEAN') out[name] = toBool(out[name]);
  }
  return out as T;
}
