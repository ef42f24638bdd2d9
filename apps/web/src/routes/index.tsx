import { Link, createFileRoute } from '@tanstack/react-router';
import { PublicPage } from '../components/layout/public-page';
import { ProductVisual } from '../components/landing/product-visual';
import { buttonClass } from '../components/ui/button';
import { useCardCheck } from '../lib/capabilities';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/')({ component: LandingPage });

/** The card check is named only where this installation offers it (Stripe configured; lib/capabilities.ts). */
const features = (cardCheck: boolean) => [
  {
    title: 'Age verification',
    body: cardCheck
      ? 'Prove an age threshold — 12, 16, 18 or 21 — from a government ID, an issuer-confirmed credit card or an on-box facial age estimate with a challenge-age buffer.'
      : 'Prove an age threshold — 12, 16, 18 or 21 — from a government ID or an on-box facial age estimate with a challenge-age buffer.',
  },
  {
    title: 'Identity verification',
    body: 'Read the machine-readable zone of passports and ID cards, validate its check digits and expiry, and match the portrait to a live selfie with liveness detection.',
  },
  {
    title: 'Location checks',
    body: 'Compare the declared country and state with an on-box IP geolocation database, for laws that apply per jurisdiction.',
  },
  {
    title: 'Partner integration with OAuth2',
    body: 'Standard OpenID Connect with PKCE and consent. Partner sites ask for scopes such as AGE_18 and receive a yes or a no — never a birth date or a photo.',
  },
  {
    title: 'On your own hardware',
    body: 'Photos, videos and documents are analysed on the appliance and deleted after analysis. Nothing is sent to a third-party vision service.',
  },
  {
    title: 'Audit you can trust',
    body: 'Every security-relevant action is written to a hash-chained audit log, so tampering with the record is detectable.',
  },
];

const INDUSTRIES = [
  {
    name: 'E-commerce',
    body: 'Age-restricted goods such as alcohol, vapes and knives, checked at checkout.',
  },
  { name: 'Gaming', body: 'Age ratings, loot-box rules and gambling-adjacent features.' },
  { name: 'Social media', body: 'Minimum-age rules and age-appropriate design for younger users.' },
  {
    name: 'Financial services',
    body: 'Identity checks as part of onboarding, with evidence kept on your premises.',
  },
  { name: 'Entertainment', body: 'Mature streaming catalogues and ticketed events with age limits.' },
  {
    name: 'Dating apps',
    body: 'Adults-only communities where a real, live person stands behind each profile.',
  },
];

const STEPS = [
  {
    title: 'Verify once',
    body: 'A person signs up and proves their age, location or identity with the method that suits them.',
  },
  {
    title: 'Share a yes or no',
    body: 'When a partner site asks, they approve exactly which facts it may see on a consent screen.',
  },
  {
    title: 'Stay in control',
    body: 'They can see every site they have shared with and revoke access at any time.',
  },
];

function LandingPage() {
  useDocumentTitle('Age and identity verification you host yourself');
  const cardCheck = useCardCheck() !== null;
  return (
    <PublicPage>
      <section className="overflow-x-clip bg-gradient-to-b from-indigo-50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.15fr_1fr]">
          <div>
            <p className="text-sm font-semibold tracking-wide text-indigo-800 uppercase">
              Self-hosted verification
            </p>
            <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              Age and identity verification that never leaves your servers
            </h1>
            <p className="mt-6 max-w-2xl text-lg text-slate-700">
              Attestly verifies age, location and identity on your own hardware and lets partner sites ask for
              proof through standard OAuth2 with consent. Integration takes under 5 minutes.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link to="/register" className={buttonClass('primary', 'px-6 py-3 text-base')}>
                Get started
              </Link>
              <Link to="/docs" className={buttonClass('secondary', 'px-6 py-3 text-base')}>
                View Documentation
              </Link>
            </div>
          </div>
          <ProductVisual />
        </div>
      </section>

      <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-16 sm:py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight text-slate-900">
            Features
          </h2>
          <p className="mt-3 max-w-2xl text-slate-700">
            {cardCheck
              ? 'Three verification methods — credit card, document and facial recognition — behind one consent-based integration.'
              : 'Two verification methods — document and facial recognition — and location checks, behind one consent-based integration.'}
          </p>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features(cardCheck).map((feature) => (
              <li key={feature.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold text-slate-900">{feature.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-700">{feature.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="how-title" className="bg-slate-50 py-16 sm:py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="how-title" className="text-3xl font-bold tracking-tight text-slate-900">
            How it works
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm">
                <span className="inline-flex size-8 items-center justify-center rounded-full bg-indigo-700 text-sm font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-700">{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="industries" aria-labelledby="industries-title" className="scroll-mt-20 py-16 sm:py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="industries-title" className="text-3xl font-bold tracking-tight text-slate-900">
            Industries
          </h2>
          <p className="mt-3 max-w-2xl text-slate-700">
            Built for businesses that must check age or identity by law or by policy.
          </p>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {INDUSTRIES.map((industry) => (
              <li key={industry.name} className="rounded-xl border border-slate-200 p-6">
                <h3 className="text-lg font-semibold text-slate-900">{industry.name}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-700">{industry.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-title" className="bg-indigo-800">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white">
              Ready to verify with privacy built in?
            </h2>
            <p className="mt-2 text-indigo-100">
              Create an account and verify yourself once for every partner site.
            </p>
          </div>
          <Link to="/register" className={buttonClass('secondary', 'px-6 py-3 text-base')}>
            Sign up for free
          </Link>
        </div>
      </section>
    </PublicPage>
  );
}
