import { Link } from '@tanstack/react-router';

interface FooterLink {
  to: '/' | '/news' | '/docs' | '/status' | '/login' | '/register' | '/terms' | '/privacy';
  text: string;
}

const PRODUCT: readonly FooterLink[] = [
  { to: '/', text: 'Home' },
  { to: '/news', text: 'News' },
  { to: '/docs', text: 'Documentation' },
  { to: '/status', text: 'Status' },
];

const ACCOUNT: readonly FooterLink[] = [
  { to: '/login', text: 'Sign in' },
  { to: '/register', text: 'Sign up' },
  // The partner portal's entry (issue 10); the header keeps the spec's links.
  { to: '/partner/login' as '/', text: 'For businesses' },
  { to: '/terms', text: 'Terms of Service' },
  { to: '/privacy', text: 'Privacy Policy' },
];

/** A titled column of the footer's site map, a navigation landmark of its own. */
function FooterColumn({
  label,
  title,
  links,
}: {
  label: string;
  title: string;
  links: readonly FooterLink[];
}) {
  return (
    <nav aria-label={label}>
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      <ul className="mt-3 space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-sm text-slate-700 hover:text-slate-900 hover:underline">
              {link.text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Footer of the public pages: the site map of spec 01 §2 and the copyright line. */
export function PublicFooter() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <p className="text-base font-bold text-slate-900">Attestly</p>
          <p className="mt-2 max-w-sm text-sm text-slate-700">
            Self-hosted age, location and identity verification. Analysis runs on your own hardware; partner
            sites learn a yes or a no, never the evidence.
          </p>
        </div>
        <FooterColumn label="Product" title="Product" links={PRODUCT} />
        <FooterColumn label="Account and legal" title="Account" links={ACCOUNT} />
      </div>
      <div className="border-t border-slate-200 py-4 text-center text-sm text-slate-700">
        © {new Date().getFullYear()} Attestly. All rights reserved.
      </div>
    </footer>
  );
}
