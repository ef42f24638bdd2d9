import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { isCountryCode, subdivisionListSchema } from '@attestly/contracts';
import { assert } from '../../../errors';
import { ok } from '../../../middleware/describe';
import { createRouter, routes } from '../../../middleware/route';

/** What the route needs: the signed-in-user guard and the on-box subdivision names (location.ts). */
export interface LocationRouteDeps {
  requireUser: Middleware;
  verifications: { location: { subdivisionsOf(country: string): Promise<string[]> } };
}

/**
 * The places a profile can declare (issue 25 item 3): every country is in @attestly/contracts; the subdivisions
 * come from the GeoLite2 data on the box, so a state picked from them is one the location check can match.
 */
export function locationRoutes({ requireUser, verifications }: LocationRouteDeps): Router {
  const router = createRouter();
  routes(router, { tag: 'Verification' }).get('/locations/countries/:code/subdivisions', {
    summary: "A country's states and regions",
    description:
      'The subdivision names (states, provinces, regions, nations) the on-box geolocation data has for a country, sorted: the values the location check compares your declared state with. An empty list where the data has none.',
    responses: {
      200: ok('The subdivisions', subdivisionListSchema),
      404: ok('Not a country code'),
    },
    guards: [requireUser],
    handler: async ({ ctx }) => {
      const code = (ctx.params.code ?? '').toUpperCase();
      assert(isCountryCode(code), 404, 'not_found', `${ctx.params.code ?? ''} is not a country code`);
      ctx.set('Cache-Control', 'private, max-age=86400');
      return { country: code, subdivisions: await verifications.location.subdivisionsOf(code) };
    },
  });
  return router;
}
