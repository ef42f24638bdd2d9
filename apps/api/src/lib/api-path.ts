/**
 * Whether a request path is under /api/, in any case. The API's routes match only their own case (`createRouter`), so
 * `/API/V1/…` is no route of it; this test still gives such a path the API's JSON 404 rather than the web app's page.
 */
export function underApi(path: string): boolean {
  return path.slice(0, 5).toLowerCase() === '/api/';
}
