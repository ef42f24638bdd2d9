// Figures of the server's import graph (issue 26): arrows between files and between folders of apps/api/src, the
// ones the layer rules of .dependency-cruiser.cjs call upward, and the import circles (strongly connected groups of
// files, type imports included).
//
//   npx depcruise apps/api/src apps/contracts/src cli/src --output-type json --output-to /tmp/graph.json
//   node apps/api/scripts/import-graph.mjs /tmp/graph.json
import { readFileSync } from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
if (!file) {
  console.error('usage: node apps/api/scripts/import-graph.mjs <depcruise JSON output>');
  process.exit(2);
}
const result = JSON.parse(readFileSync(file, 'utf8'));
const inApi = (source) => source.startsWith('apps/api/src/');
const folder = (source) => path.dirname(source);

const modules = result.modules.filter((m) => inApi(m.source));
const edges = modules.flatMap((m) =>
  m.dependencies.filter((d) => inApi(d.resolved)).map((d) => [m.source, d.resolved]),
);
const folderArrows = new Set(
  edges
    .filter(([from, to]) => folder(from) !== folder(to))
    .map(([from, to]) => `${folder(from)} → ${folder(to)}`),
);
const upward = result.summary.violations.filter((v) => inApi(v.from) && v.rule.name.startsWith('layer-'));
const upwardFolders = new Set(upward.map((v) => `${folder(v.from)} → ${folder(v.to)}`));

// Tarjan's strongly connected components: each group of more than one file is one circle.
const next = new Map();
for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function visit(node) {
  index.set(node, index.size);
  low.set(node, index.get(node));
  stack.push(node);
  onStack.add(node);
  for (const to of next.get(node) ?? []) {
    if (!index.has(to)) {
      visit(to);
      low.set(node, Math.min(low.get(node), low.get(to)));
    } else if (onStack.has(to)) {
      low.set(node, Math.min(low.get(node), index.get(to)));
    }
  }
  if (low.get(node) === index.get(node)) {
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) circles.push(group);
  }
}
for (const m of modules) if (!index.has(m.source)) visit(m.source);

console.log(
  `files ${modules.length}, folders ${new Set(modules.map((m) => folder(m.source))).size}; ` +
    `arrows: ${edges.length} between files, ${folderArrows.size} between folders; ` +
    `upward: ${upward.length} between files, ${upwardFolders.size} between folders; circles: ${circles.length}`,
);
for (const group of circles) {
  console.log(
    `  circle of ${group.length} files: ${group.slice(0, 3).join(', ')}${group.length > 3 ? ', …' : ''}`,
  );
}
