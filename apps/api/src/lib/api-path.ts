/**
 * Whether a request is for the API: its path is under /api/, in any case. The one test of it, for every rule keyed on
 * it (JSON bodies, `Cache-Control: no-store`, the JSON 404, metrics, the request counter). The API's routes match
 * only their own case (`createRouter`), so `/API/V1/…` is no route of it, yet it still gets the API's JSON 404 and
 * headers rather than the web app's page.
 */
export function underApi(path: string): boolean {
  return path.slice(0, 5).toLowerCase() === '/api/';
}
