// Container HEALTHCHECK: exits 0 when GET /healthz answers 200 within 4 seconds (the slim image has no curl).
const port = process.env.PORT || '8080';
const controller = new AbortController();
setTimeout(() => controller.abort(), 4000).unref();
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: controller.signal });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
