import { Link, useLocation } from '@tanstack/react-router';
import { useHasToken } from '../../auth/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { buttonClass } from '../ui/button';
import { PublicPage } from './public-page';

/** Where someone who mistyped an address in an area most likely wanted to go. */
export function notFoundDestinations(
  pathname: string,
  signedIn: { user: boolean; partner: boolean },
): Array<{ to: string; label: string }> {
  if (pathname.startsWith('/partner')) {
    return signedIn.partner
      ? [{ to: '/partner/dashboard', label: 'Partner dashboard' }]
      : [{ to: '/partner/login', label: 'Partner sign-in' }];
  }
  if (pathname.startsWith('/backoffice')) return [{ to: '/backoffice', label: 'Back office' }];
  return signedIn.user
    ? [
        { to: '/dashboard', label: 'Your dashboard' },
        { to: '/', label: 'Home page' },
      ]
    : [
        { to: '/', label: 'Home page' },
        { to: '/docs', label: 'Documentation' },
      ];
}

/**
 * Any address no screen answers (issue 25 item 12): a page that says so and names the address, instead of a silent
 * jump to the home page that leaves a mistyped link looking like a broken product.
 */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  const pathname = useLocation({ select: (location) => location.pathname });
  const user = useHasToken('user');
  const partner = useHasToken('partner');
  const [first, ...rest] = notFoundDestinations(pathname, { user, partner });
  return (
    <PublicPage>
      <section className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <p className="text-sm font-semibold text-indigo-700">Error 404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-4 text-slate-700">
          There is no page at <code className="rounded bg-slate-100 px-1.5 py-0.5 break-all">{pathname}</code>
          . The link may be mistyped or out of date.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          {first ? (
            <Link to={first.to as '/'} className={buttonClass('primary')}>
              {first.label}
            </Link>
          ) : null}
          {rest.map((item) => (
            <Link key={item.to} to={item.to as '/'} className={buttonClass('secondary')}>
              {item.label}
            </Link>
          ))}
        </div>
      </section>
    </PublicPage>
  );
}
