import { Link, createFileRoute } from '@tanstack/react-router';
import { SupportLink } from '../components/docs/support-link';
import { LegalPage } from '../components/layout/legal-page';
import { useCardCheck } from '../lib/capabilities';
import { useDocumentTitle } from '../lib/use-document-title';

export const Route = createFileRoute('/privacy')({ component: PrivacyPage });

function PrivacyPage() {
  useDocumentTitle('Privacy Policy');
  // Card checks are described only where this installation offers them (Stripe configured).
  const cardCheck = useCardCheck() !== null;
  return (
    <LegalPage title="Privacy Policy" updated="25 November 2026">
      <p>
        Attestly is a verification appliance: software that an organisation (the <strong>operator</strong>)
        runs on its own servers to check age, location and identity, and to tell partner websites the result
        with your consent. This policy explains what this appliance processes, why, for how long, and what you
        can do about it. The operator of this appliance is the controller of your personal data; you can reach
        them at <SupportLink className="font-medium text-indigo-700 underline" />.
      </p>

      <h2>What we process</h2>
      <ul>
        <li>
          <strong>Account data</strong>: your name, email address, optional phone number, country, state and
          city, an optional profile photo, and a hash of your password (never the password itself).
        </li>
        <li>
          <strong>Verification evidence</strong>, only when you choose to verify: a photo or short video of
          your face
          {cardCheck
            ? ', an image or PDF of an identity document, or a payment card'
            : ' or an image or PDF of an identity document'}
          .
        </li>
        <li>
          <strong>Verification results</strong>: which facts you have proven (for example &ldquo;at least
          18&rdquo;, a country, a verified identity), the method used, a confidence score and the time of the
          check.
        </li>
        <li>
          <strong>Consents</strong>: which partner sites you allowed to receive which facts, and when you
          revoked access.
        </li>
        <li>
          <strong>Security records</strong>: sign-in sessions (device description and IP address), and an
          audit log of security-relevant actions.
        </li>
      </ul>

      <h2>How verification works</h2>
      <p>
        Photos, videos and documents are analysed <strong>on this appliance</strong>: face detection, age
        estimation, liveness detection and reading of the document&apos;s machine-readable zone all run
        locally, and the verification engine makes no network calls to outside services. Evidence is encrypted
        while stored and is deleted as soon as the analysis is finished. The one exception is a result that
        needs a person to review it (for example a document the software could not read with confidence): that
        evidence is kept, encrypted, only until a reviewer has decided, or the retention limit set by the
        operator has passed, whichever comes first.
      </p>
      {cardCheck ? (
        <p>
          A card check sends your card from your browser straight to the operator&apos;s payment provider
          (Stripe), which has your card issuer confirm it; this appliance never sees the card number or
          security code, and nothing is charged. Only the card brand, its last four digits, whether it is a
          credit or debit card, its issuing country and a one-way keyed fingerprint (used to detect re-use)
          are kept. The provider processes the card under its own privacy terms.
        </p>
      ) : null}

      <h2>What partner sites receive</h2>
      <p>
        A partner site receives only the facts you approve on the consent screen, as yes-or-no answers: for
        example &ldquo;over 18: yes&rdquo;, never your date of birth, your document or your photo. Basic
        information (your name and email address) is always part of a request, so you can see who is asking
        before you agree. You can review and revoke each site&apos;s access on your{' '}
        <Link to="/tokens" className="font-medium text-indigo-700 underline">
          Connected sites
        </Link>{' '}
        page.
      </p>

      <h2>Why we process it</h2>
      <ul>
        <li>
          To provide the verification you ask for and share it where you tell us to (performance of a
          contract).
        </li>
        <li>
          Where a partner must check age or identity by law, to let it meet that obligation without receiving
          your evidence.
        </li>
        <li>
          To keep accounts secure and detect abuse, through sessions, rate limits and the audit log
          (legitimate interest).
        </li>
        <li>To send the newsletter, only if you subscribed and confirmed your address (consent).</li>
      </ul>

      <h2>How long we keep it</h2>
      <ul>
        <li>
          Verification evidence: deleted right after analysis, or after manual review as described above.
        </li>
        <li>
          Verified facts: valid for twelve months by default, after which you are asked to verify again; the
          record of the check is kept as long as your account exists.
        </li>
        <li>
          Sessions: until you sign out, or they expire (12 hours, or 30 days with &ldquo;remember me&rdquo;).
        </li>
        <li>Account data: until you delete your account.</li>
        <li>
          Audit log: kept by the operator for security and accountability; entries cannot be edited, which is
          what makes the log trustworthy.
        </li>
      </ul>

      <h2>Your rights</h2>
      <p>
        Depending on where you live (for example under the UK GDPR or the EU GDPR) you can ask to access,
        correct, export or delete your data, object to or restrict processing, and withdraw consent at any
        time. You can do much of this yourself: edit your{' '}
        <Link to="/profile" className="font-medium text-indigo-700 underline">
          profile
        </Link>
        , revoke partner access, sign out other devices or delete your account on the{' '}
        <Link to="/security" className="font-medium text-indigo-700 underline">
          Security
        </Link>{' '}
        page. For anything else contact the operator. You also have the right to complain to your data
        protection authority, such as the ICO in the UK or the CNIL in France.
      </p>

      <h2>Cookies and local storage</h2>
      <p>
        This site uses no advertising or analytics trackers. Your browser stores your sign-in token — in
        session storage, or in local storage if you chose &ldquo;remember me&rdquo; — and, if you use it, your
        reading list of saved articles.
      </p>

      <h2>Changes</h2>
      <p>
        If this policy changes in a way that matters, the operator will tell you by email or on this site
        before the change takes effect. See also the{' '}
        <Link to="/terms" className="font-medium text-indigo-700 underline">
          Terms of Service
        </Link>
        .
      </p>
    </LegalPage>
  );
}
