import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../src/config';
import { CONFIG_DOCS, renderConfigReference } from '../scripts/config-reference';

/**
 * The configuration reference (docs/configuration.md) is generated from the schema, and the operator's env files
 * list every variable: a variable added to apps/api/src/config.ts without documentation, or a committed reference
 * that differs from the generator's output, fails here.
 */
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const variables = Object.keys(envSchema.entries);

describe('configuration reference', () => {
  it('is committed exactly as the generator writes it from the schema', () => {
    expect(read('docs/configuration.md')).toBe(renderConfigReference());
  });

  it('documents every variable with its default from the schema', () => {
    const text = renderConfigReference();
    for (const name of variables) expect(text, name).toContain(`| \`${name}\` |`);
    expect(text).toContain('| `PORT` | `8080` |');
    expect(text).toContain('| `ATTESTLY_PASSWORD_COST` | `15` |');
    expect(text).toContain('| `ATTESTLY_MASTER_KEY` | generated once into');
  });

  it('refuses to generate a reference that would miss a variable', () => {
    const entries = { ...envSchema.entries, ATTESTLY_SOMETHING_NEW: envSchema.entries.PORT };
    expect(() => renderConfigReference(entries as never)).toThrow(/ATTESTLY_SOMETHING_NEW/);
    expect(CONFIG_DOCS.ATTESTLY_SOMETHING_NEW).toBeUndefined();
  });

  it('lists every variable in the compose env example, the systemd env file and the compose environment', () => {
    const envExample = read('.env.example');
    const systemdEnv = read('appliance/attestly.env');
    const compose = read('compose.yaml');
    for (const name of variables) {
      expect(envExample, `.env.example: ${name}`).toMatch(new RegExp(`^${name}=`, 'm'));
      expect(systemdEnv, `appliance/attestly.env: ${name}`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      if (!['PORT', 'HOST', 'ATTESTLY_DATA_DIR'].includes(name)) {
        expect(compose, `compose.yaml: ${name}`).toContain(`${name}: \${${name}:-`);
      }
    }
  });

  it('covers every variable the README lists', () => {
    const listed = [...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(10);
    for (const name of listed) expect(variables, `README variable ${name}`).toContain(name);
  });
});
