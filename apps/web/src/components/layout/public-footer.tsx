import { Link } from '@tanstack/react-router';

const footerLink = 'text-sm text-slate-700 hover:text-slate-900 hover:underline';

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
        <nav aria-label="Product">
          <h2 className="text-sm font-semibold text-slate-900">Product</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link to="/" className={footerLink}>
                Home
              </Link>
            </li>
            <li>
              <Link to="/news" className={footerLink}>
                News
              </Link>
            </li>
            <li>
              <Link to="/docs" className={footerLink}>
                Documentation
              </Link>
            </li>
            <li>
              <Link to="/status" className={footerLink}>
                Status
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Account and legal">
          <h2 className="text-sm font-semibold text-slate-900">Account</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link to="/login" className={footerLink}>
                Sign in
              </Link>
            </li>
            <li>
              <Link to="/register" className={footerLink}>
                Sign up
              </Link>
            </li>
            <li>
              {/* The partner portal's entry (issue 10); the header keeps the spec's links. */}
              <Link to={'/partner/login' as '/'} className={footerLink}>
                For businesses
              </Link>
            </li>
            <li>
              <Link to="/terms" className={footerLink}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={footerLink}>
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-200 py-4 text-center text-sm text-slate-700">
        © {new Date().getFullYear()} Attestly. All rights reserved.
      </div>
    </footer>
  );
}
