/** The one client of bare-provider.ts (a separate module: importing bare-provider.ts starts the provider). */
export const BARE_CLIENT = {
  client_id: 'bench-client',
  client_secret: 'bench-client-secret-0123456789abcdef',
  redirect_uri: 'https://rp.bench.example/callback',
};
