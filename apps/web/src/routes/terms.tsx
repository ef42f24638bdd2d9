import { Link, createFileRoute } from '@tanstack/react-router';
import { SupportLink } from '../components/docs/support-link';
import { LegalPage } from '../components/layout/legal-page';
import { useCardCheck } from '../lib/capabilities';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/terms')({ component: TermsPage });

function TermsPage() {
  useDocumentTitle('Terms of Service');
  const cardCheck = useCardCheck() !== null;
  return (
    <LegalPage title="Terms of Service" updated="25 November 2026">
      <p>
        These terms apply to your use of this Attestly appliance: the verification service run by its operator
        on their own infrastructure. By creating an account you agree to them. Questions go to{' '}
        <SupportLink className="font-medium text-indigo-700 underline" />.
      </p>

      <h2>1. The service</h2>
      <p>
        The service lets you prove facts about yourself — that you have reached an age, where you are, who you
        are — once, and share the result with partner websites you choose. Partner sites receive yes-or-no
        answers that you approve on a consent screen, not your documents or photos. How your data is handled
        is described in the{' '}
        <Link to="/privacy" className="font-medium text-indigo-700 underline">
          Privacy Policy
        </Link>
        .
      </p>

      <h2>2. Your account</h2>
      <ul>
        <li>
          Give accurate information, and keep your email address current: it is how you recover your account.
        </li>
        <li>
          Keep your password to yourself, and sign out other devices from the Security page if you think
          someone else has access.
        </li>
        <li>One account per person. Accounts cannot be transferred.</li>
      </ul>

      <h2>3. Honest verification</h2>
      <p>
        Verify only yourself, with your own documents{cardCheck ? ', face and payment card' : ' and face'}. Do
        not submit someone else&apos;s evidence, altered or forged documents, photos of photos, masks,
        recordings or other attempts to deceive liveness detection. Such attempts may be recorded in the audit
        log, and the operator may suspend the account and, where the law requires, report them.
      </p>

      <h2>4. What a result means</h2>
      <p>
        Automated age estimation and document reading are probabilistic. The service approves a fact only when
        its checks pass with a safety margin (for example, a facial estimate must clear a challenge age above
        the threshold); otherwise it offers another method, and some cases go to a person for review. A
        verified fact stays valid for a limited time (twelve months by default) and may be re-checked.
      </p>

      <h2>5. Partner sites</h2>
      <p>
        Partner sites are separate businesses with their own terms. Sharing a result with a partner is your
        choice, and you can revoke it at any time on your Connected sites page; revoking stops future access
        but cannot recall what a partner already received. Partners must use results only for the purpose they
        were requested for, and only request the scopes their site is registered for.
      </p>

      <h2>6. Acceptable use</h2>
      <p>
        Do not probe, overload or attack the service, circumvent rate limits, scrape other people&apos;s data,
        or use the service to break the law. Automated access is allowed only through the documented API and
        OpenID Connect endpoints, within their limits.
      </p>

      <h2>7. Ending your account</h2>
      <p>
        You can delete your account at any time on the Security page. The operator may suspend or close
        accounts that break these terms, telling you why unless the law prevents it.
      </p>

      <h2>8. Availability and liability</h2>
      <p>
        The operator runs the service with reasonable care and publishes its live status on the{' '}
        <Link to="/status" className="font-medium text-indigo-700 underline">
          status page
        </Link>
        , but does not promise it will be uninterrupted. Nothing in these terms limits liability that cannot
        be limited by law, or your rights as a consumer.
      </p>

      <h2>9. Changes</h2>
      <p>
        The operator may update these terms and will give notice of material changes before they apply. If you
        do not accept them, you can delete your account.
      </p>
    </LegalPage>
  );
}
