import { CodeBlock } from './code-block';
import { authorizationRequestSample } from './quick-start';

/**
 * "Wallet Proofs" in the integration guide (issue 24 item 6): how a partner accepts an age credential from a
 * wallet through the sign-in it already uses, what it receives, and what it does not.
 */
export function WalletProofsGuide({ origin }: { origin: string }) {
  return (
    <>
      <p>
        Visitors can prove their age with an age credential from a digital identity wallet instead of an
        Attestly account: Attestly&apos;s own credential, the EU age-verification attestation (mdoc{' '}
        <code>eu.europa.ec.av.1</code>) or an EU PID (SD-JWT VC or mdoc) whose issuer the operator trusts.
        Nothing changes in your integration: ask for an age scope as usual, and the sign-in screen offers{' '}
        <strong>Use a wallet</strong> (a QR code for a phone, or a link to a wallet on the same device). Add{' '}
        <code>acr_values=urn:attestly:acr:wallet</code> if you want to say that this is the path you expect.
      </p>
      <CodeBlock
        label="Authorization request accepting wallet proofs"
        code={authorizationRequestSample(origin, 'urn:attestly:acr:wallet')}
      />
      <p>
        You receive your usual ID token and userinfo with <code>age_verified</code>,{' '}
        <code>age_threshold</code> and <code>age_over_NN: true</code> for the highest age you asked. The{' '}
        <code>sub</code> is new for every presentation: a wallet sign-in creates no account, and two visits by
        the same person cannot be linked through Attestly. You do <strong>not</strong> get a name, an e-mail
        address, a birth date, a location, a refresh token (ask again next time), or which wallet or
        credential was shown. Scopes other than the age ones and <code>basic_info</code> are declined.
      </p>
      <p>
        Attestly checks the credential for you: its issuer chain up to a trusted root (Attestly&apos;s own, or
        one the operator imported), its signature and validity, the wallet&apos;s key binding to this very
        request (so a copied presentation fails), and that the age is actually stated as true. Every refused
        presentation gets the same answer; the reason stays in the operator&apos;s log.
      </p>
      <p>
        To verify Attestly credentials in your own verifier instead, pin the credential root published at{' '}
        <code>{origin}/.well-known/attestly/credential-root.pem</code>; the issuer metadata is at{' '}
        <code>{origin}/.well-known/openid-credential-issuer/oauth2</code>.
      </p>
    </>
  );
}
