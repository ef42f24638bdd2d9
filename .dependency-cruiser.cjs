/**
 * Import rules for the server and the CLI (issue 26 item 1), checked by `npm run lint` (so by .ci/run):
 * no import circle, and every import points down the layers below. Tests are left out: they may reach anything.
 *
 * Layers, bottom to top. A file belongs to the first layer whose pattern matches it, so the few files named
 * explicitly in a lower layer (leaf parsers that config.ts reads, the OIDC provider's storage) stay there although
 * their folder sits higher. A file may import its own layer and the layers below it, never one above.
 */
const layers = [
  // Shared with the web app, the SDK and the CLI; imports nothing of ours.
  { name: 'contracts', path: ['^apps/contracts/', '^models/'] },
  // Pure helpers, the error type, configuration and the leaf parsers config.ts calls (they import nothing of ours).
  {
    name: 'base',
    path: [
      '^apps/api/src/lib/',
      '^apps/api/src/(errors|config|config-env|config-file|logger)\\.ts$',
      '^apps/api/src/modules/users/wallet/config\\.ts$',
      '^apps/api/src/modules/partners/webhooks/outbound-guard\\.ts$',
    ],
  },
  { name: 'db', path: ['^apps/api/src/db/'] },
  // What every service receives (Deps, Job, the mail and phone ports): interfaces only.
  { name: 'core', path: ['^apps/api/src/core/'] },
  { name: 'middleware', path: ['^apps/api/src/middleware/'] },
  // The OIDC provider's storage (payload rows, accounts, artefact keys, signing keys), which services also read.
  {
    name: 'oidc-store',
    path: [
      '^apps/api/src/oidc/(adapter|clients|payload-rows|joined-reads|account|artefacts|request-rows|keys|issuers)\\.ts$',
    ],
  },
  { name: 'modules', path: ['^apps/api/src/modules/'] },
  // The provider itself (configuration, events, interaction steps), built from the modules' services.
  { name: 'oidc', path: ['^apps/api/src/oidc/'] },
  // The composition root: builds the services, the jobs and the app, and starts the server.
  { name: 'root', path: ['^apps/api/src/[^/]+$'] },
  // The `attestly` command: opens the services itself.
  { name: 'cli', path: ['^cli/'] },
];

const upward = layers.flatMap((layer, index) => {
  const below = layers.slice(0, index).flatMap((l) => l.path);
  const belowOrSame = [...below, ...layer.path];
  const above = layers.slice(index + 1).flatMap((l) => l.path);
  if (above.length === 0) return [];
  return [
    {
      name: `layer-${layer.name}`,
      comment: `${layer.name} imports a higher layer (${layers
        .slice(index + 1)
        .map((l) => l.name)
        .join(', ')}): take what it needs as an argument typed by an interface it owns or that lives lower.`,
      severity: 'error',
      from: { path: layer.path, ...(below.length ? { pathNot: below } : {}) },
      to: { path: above, pathNot: belowOrSame },
    },
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle (type imports included): move what both sides need into a lower file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '^apps/api/test/', '^cli/test/', '(^|/)node_modules/'] },
    // Type-only imports count: a type import from the composition root is still an arrow pointing up.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
