// Checks the rendered compose file (`docker-compose config` with .env.example, postgres profile, on stdin) for what
// issue 25 item 10 asked (appliance/ci-validate.sh runs it):
// - no default database password, and the postgres service refuses to start without one, saying what to do;
// - .env.example leaves each service its own public URL (8080 for SQLite, 8081 behind the postgres profile's proxy);
// - the proxy publishes an HTTPS port besides HTTP, and the guide says how to put them on 80 and 443.
// Usage: docker-compose -f compose.yaml --env-file .env.example --profile postgres config | node check-compose.mjs [js-yaml dir]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(
  process.argv[2] ? path.join(path.resolve(process.argv[2]), 'x.js') : import.meta.url,
);
const yaml = require('js-yaml');

const problems = [];
const check = (ok, message) => ok || problems.push(message);

const rendered = yaml.load(readFileSync(0, 'utf8'));
const services = rendered.services ?? {};
const env = (name) => services[name]?.environment ?? {};

check(
  !/change-me/.test(readFileSync(path.join(root, 'compose.yaml'), 'utf8')),
  'compose.yaml still has a default password',
);
check(env('postgres').POSTGRES_PASSWORD === '', 'POSTGRES_PASSWORD from .env.example is not empty');
check(
  env('attestly').ATTESTLY_PUBLIC_URL === 'http://localhost:8080',
  `SQLite service URL: ${env('attestly').ATTESTLY_PUBLIC_URL}`,
);
check(
  env('attestly-pg').ATTESTLY_PUBLIC_URL === 'http://localhost:8081',
  `postgres profile URL (overridden by .env.example?): ${env('attestly-pg').ATTESTLY_PUBLIC_URL}`,
);
const ports = (services.proxy?.ports ?? []).map((port) =>
  String(typeof port === 'object' ? port.target : port.split(':').at(-1)),
);
check(ports.includes('80') && ports.includes('443'), `proxy publishes ${ports.join(', ')}, not 80 and 443`);
const guide = readFileSync(path.join(root, 'docs/operator-guide.md'), 'utf8');
check(
  /ATTESTLY_PG_HTTP_PORT=80/.test(guide) && /ATTESTLY_PG_HTTPS_PORT=443/.test(guide),
  'the guide does not say how to publish 80 and 443',
);

// The postgres entrypoint as the container runs it (compose renders `$` as `$$`): refuses without a password.
const entrypoint = services.postgres?.entrypoint ?? [];
check(entrypoint[0] === 'sh' && entrypoint[1] === '-c', 'postgres has no guarding entrypoint');
if (entrypoint[0] === 'sh') {
  const script = String(entrypoint[2]).replaceAll('$$', '$');
  const empty = spawnSync('sh', ['-c', script], { env: { PATH: process.env.PATH, POSTGRES_PASSWORD: '' } });
  check(empty.status === 78, `without a password the entrypoint exits ${empty.status}, not 78`);
  check(/POSTGRES_PASSWORD is not set/.test(String(empty.stderr)), `its message: ${String(empty.stderr)}`);
  // With one it goes on to the image's own entrypoint (absent here: "not found", exit 127).
  const set = spawnSync('sh', ['-c', script], { env: { PATH: '/usr/bin:/bin', POSTGRES_PASSWORD: 'x' } });
  check(
    set.status === 127 && /docker-entrypoint\.sh/.test(String(set.stderr)),
    `with a password: exit ${set.status}`,
  );
}

if (problems.length) {
  console.error(`compose check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('compose check: ok');
