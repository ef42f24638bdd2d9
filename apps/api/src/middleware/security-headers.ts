import type { Middleware } from 'koa';
import { underApi } from '../lib/api-path';

/**
 * Security headers for every response. The SPA is served from this origin, so the CSP allows only 'self'
 * (inline styles are allowed because UI libraries set style attributes; inline scripts are not).
 * Camera access is granted to this origin only: the verification screen needs it.
 */
export function securityHeaders(options: { https: boolean; stripeJsUrl?: string | null }): Middleware {
  // With the card check on, Stripe.js runs in the page: its script, its card and 3-D Secure frames, and its API
  // (https://docs.stripe.com/security/guide#content-security-policy). Nothing of Stripe's is admitted otherwise.
  const stripe = options.stripeJsUrl
    ? [
        ...new Set([new URL(options.stripeJsUrl).origin, 'https://js.stripe.com', 'https://*.stripe.com']),
      ].join(' ')
    : null;
  const withStripe = (directive: string) => (stripe ? `${directive} ${stripe}` : directive);
  const csp = [
    "default-src 'self'",
    withStripe("script-src 'self'"),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    stripe ? `connect-src 'self' https://api.stripe.com ${stripe}` : "connect-src 'self'",
    ...(stripe ? [withStripe("frame-src 'self'")] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    // A route that is meant for other origins (the SDK's browser module, modules/partners/sdk-downloads) says so itself.
    if (!ctx.response.get('Cross-Origin-Resource-Policy'))
      ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=()');
    if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', csp);
    if (options.https) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (underApi(ctx.path) && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  };
}
