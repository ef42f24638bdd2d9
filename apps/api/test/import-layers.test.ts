import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules `npm run lint` applies (.dependency-cruiser.cjs, issue 26), run on a small tree laid out like
 * apps/api/src: the rules must flag an upward import and a circle, and leave downward imports alone.
 */
const require = createRequire(import.meta.url);
const config = require('../../../.dependency-cruiser.cjs') as IConfiguration;

const files: Record<string, string> = {
  // The composition root and the interfaces below the modules.
  'apps/api/src/services.ts':
    "import { thingService } from './modules/things/service';\nexport const services = { thingService };\nexport type AppServices = typeof services;\n",
  'apps/api/src/core/deps.ts': 'export interface Deps { now(): Date }\n',
  'apps/api/src/lib/format.ts': 'export const format = (n: number) => String(n);\n',
  // A module that takes its deps from core: allowed.
  'apps/api/src/modules/things/service.ts':
    "import type { Deps } from '../../core/deps';\nimport { format } from '../../lib/format';\nexport const thingService = (deps: Deps) => format(deps.now().getTime());\n",
  // A module that names the composition root, by a type import only: upward.
  'apps/api/src/modules/things/routes.ts':
    "import type { AppServices } from '../../services';\nexport const thingRoutes = (services: AppServices) => services;\n",
  // Two files of one module that import each other: a circle.
  'apps/api/src/modules/pair/left.ts': "import { right } from './right';\nexport const left = () => right;\n",
  'apps/api/src/modules/pair/right.ts': "import { left } from './left';\nexport const right = () => left;\n",
  // The database layer reaching into a module: upward.
  'apps/api/src/db/rows.ts':
    "import { thingService } from '../modules/things/service';\nexport const rows = thingService;\n",
  // A file the config places in the bottom layer although its folder is a module: it may not import the module.
  'apps/api/src/modules/users/wallet/config.ts':
    "import { thingService } from '../../things/service';\nexport const walletConfig = thingService;\n",
  // The provider's storage sits below the modules, the provider itself above them.
  'apps/api/src/oidc/adapter.ts':
    "import { thingService } from '../modules/things/service';\nexport const adapter = thingService;\n",
  'apps/api/src/oidc/index.ts':
    "import { thingService } from '../modules/things/service';\nimport { adapter } from './adapter';\nexport const oidc = [thingService, adapter];\n",
  // The CLI on top may open the services.
  'cli/src/main.ts':
    "import { services } from '../../apps/api/src/services';\nexport const main = services;\n",
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'attestly-layers-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  // The repository's options, less the tsconfig (the fixture has none; its imports are all relative).
  const { tsConfig: _tsConfig, ...options } = config.options ?? {};
  const reported = await cruise(
    ['apps', 'cli'],
    { ...options, baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden } },
    { extensions: ['.ts'] },
  );
  result = reported.output as ICruiseResult;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const violations = () =>
  (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();

describe('import rules (npm run lint)', () => {
  // A circle is reported once, from its first file.
  it('flags every upward import and the circle, and nothing else', () => {
    expect(violations()).toEqual(
      [
        'layer-base: apps/api/src/modules/users/wallet/config.ts → apps/api/src/modules/things/service.ts',
        'layer-db: apps/api/src/db/rows.ts → apps/api/src/modules/things/service.ts',
        'layer-modules: apps/api/src/modules/things/routes.ts → apps/api/src/services.ts',
        'layer-oidc-store: apps/api/src/oidc/adapter.ts → apps/api/src/modules/things/service.ts',
        'no-circular: apps/api/src/modules/pair/left.ts → apps/api/src/modules/pair/right.ts',
      ].sort(),
    );
  });

  it('counts every file of the tree, so a rule cannot pass by not seeing one', () => {
    expect(result.modules.map((m) => m.source).sort()).toEqual(Object.keys(files).sort());
  });
});
