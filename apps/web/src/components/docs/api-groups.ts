import type { OpenApiDocument, OpenApiOperation } from '../../api/site';

export interface Entry {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export const tagSlug = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** Operations grouped by their first tag, in the document's tag order. */
export function groupByTag(
  document: OpenApiDocument,
): Array<{ name: string; description?: string; entries: Entry[] }> {
  const groups = document.tags.map((tag) => ({ ...tag, entries: [] as Entry[] }));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags[0] ?? 'Other';
      let group = groups.find((candidate) => candidate.name === tag);
      if (!group) {
        group = { name: tag, entries: [] };
        groups.push(group);
      }
      group.entries.push({ method, path, operation });
    }
  }
  return groups.filter((group) => group.entries.length > 0);
}
