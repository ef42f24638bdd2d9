/**
 * The baseline for the plain API's per-request overhead (issue 15 "Speed"): a bare Koa app answering
 * `GET /api/v1/users/profile` with a JSON body shaped like ours, no database, no middleware. oidc-bench.ts loads it
 * with the same autocannon settings as our `GET /users/profile`, in the same run, and reports the ratio.
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const profile = {
  id: '6f1d0c7e-2b1a-4c55-9a63-0f7b8f5d2a10',
  email: 'bench-user@example.com',
  full_name: 'Bench User',
  phone: null,
  country: null,
  state: null,
  city: null,
  email_verified: false,
  phone_verified: false,
  profile_photo_url: null,
  age_verified: false,
  location_verified: false,
  identity_verified: false,
  created_at: new Date().toISOString(),
};

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/api/v1/users/profile' && ctx.get('Authorization').startsWith('Bearer ')) {
    ctx.body = profile;
    return;
  }
  ctx.status = 401;
  ctx.body = { detail: 'unauthenticated' };
});
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ port, msg: 'bare koa listening' }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
