import { Link, createFileRoute } from '@tanstack/react-router';
import { CodeBlock, applianceUrl } from '../../components/docs/code-block';
import { DOC_SECTIONS } from '../../components/docs/doc-sections';
import { sdkQuickStartSample } from '../../components/docs/quick-start';
import { useCardCheck } from '../../lib/capabilities';
import { SupportLink } from '../../components/docs/support-link';
import { PublicPage } from '../../components/layout/public-page';
import { buttonClass } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/docs/')({ component: DocsPage });

const quickLinkClass =
  'block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md focus-visible:shadow-md';

function DocsPage() {
  useDocumentTitle('Documentation');
  const cardCheck = useCardCheck() !== null;
  return (
    <PublicPage>
      <section className="bg-gradient-to-b from-indigo-50 to-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900">Documentation</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-700">
            Add age, location and identity checks to your site with standard OpenID Connect. Your visitors
            verify once on this appliance; your site receives a yes or a no.
          </p>
          <Link to="/register" className={buttonClass('primary', 'mt-8 px-6 py-3 text-base')}>
            Get Started
          </Link>
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-16 px-4 pb-16 sm:px-6">
        <section aria-labelledby="quick-links-title">
          <h2 id="quick-links-title" className="text-2xl font-bold text-slate-900">
            Quick Links
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <li>
              <Link to="/docs/api" className={quickLinkClass}>
                <span className="font-semibold text-slate-900">API Playground</span>
                <span className="mt-1 block text-sm text-slate-700">
                  Every endpoint, generated from the server.
                </span>
              </Link>
            </li>
            <li className="flex flex-col">
              {/* The appliance serves its own SDK (issue 25 item 2): this downloads the npm tarball. */}
              <a
                href="/sdk/attestly-sdk-latest.tgz"
                download
                className={quickLinkClass.replace('h-full', 'flex-1')}
              >
                <span className="font-semibold text-slate-900">SDK Downloads</span>
                <span className="mt-1 block text-sm text-slate-700">
                  The @attestly/sdk package for Node.js and browsers.
                </span>
              </a>
              <Link
                to="/docs/sdk"
                className="mt-2 inline-block text-sm font-medium text-indigo-700 underline"
              >
                How to install and use it
              </Link>
            </li>
            <li>
              <Link to="/status" className={quickLinkClass}>
                <span className="font-semibold text-slate-900">Status Page</span>
                <span className="mt-1 block text-sm text-slate-700">Live readiness of this appliance.</span>
              </Link>
            </li>
            <li>
              <div className={quickLinkClass}>
                <span className="font-semibold text-slate-900">Support</span>
                <span className="mt-1 block text-sm text-slate-700">
                  <SupportLink className="font-medium text-indigo-700 underline hover:text-indigo-900">
                    Email the operators
                  </SupportLink>
                </span>
              </div>
            </li>
          </ul>
        </section>

        <div className="grid gap-6 md:grid-cols-2">
          {DOC_SECTIONS.map((section) => (
            <section
              key={section.title}
              aria-labelledby={`section-${section.items[0]?.slug}`}
              className="rounded-xl border border-slate-200 p-6"
            >
              <h2 id={`section-${section.items[0]?.slug}`} className="text-xl font-semibold text-slate-900">
                {section.title}
              </h2>
              <p className="mt-1 text-sm text-slate-700">{section.description}</p>
              <ul className="mt-4 space-y-2">
                {section.items.map((item) => (
                  <li key={item.slug}>
                    <Link
                      to="/docs/guide"
                      hash={item.slug}
                      className="text-sm font-medium text-indigo-700 hover:text-indigo-900 hover:underline"
                    >
                      {item.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>

        <section aria-labelledby="quick-start-title">
          <h2 id="quick-start-title" className="text-2xl font-bold text-slate-900">
            Quick Start Example
          </h2>
          <p className="mt-2 max-w-3xl text-slate-700">
            Your server asks whether a visitor who signed in with Attestly is over 18, with the SDK this
            appliance serves. Without the SDK, any certified OpenID Connect library works (see the{' '}
            <Link to="/docs/sdk" className="font-medium text-indigo-700 underline">
              SDK page
            </Link>
            ).
          </p>
          <div className="mt-6">
            <CodeBlock
              label="Node.js (@attestly/sdk) — is this visitor 18 or over?"
              code={sdkQuickStartSample(applianceUrl(), cardCheck)}
            />
          </div>
        </section>

        <section
          aria-labelledby="help-title"
          className="rounded-2xl bg-slate-900 px-6 py-10 text-white sm:px-10"
        >
          <h2 id="help-title" className="text-2xl font-bold">
            Need Help?
          </h2>
          <p className="mt-2 max-w-2xl text-slate-200">
            The operators of this appliance answer integration questions. Compliance news and guides are on
            the news page.
          </p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <SupportLink className={buttonClass('secondary')}>Contact Support</SupportLink>
            <Link to="/news" className={buttonClass('ghost', 'text-white hover:bg-slate-800')}>
              View Latest Updates
            </Link>
          </div>
        </section>
      </div>
    </PublicPage>
  );
}
