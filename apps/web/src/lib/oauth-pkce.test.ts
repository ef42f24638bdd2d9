import { describe, expect, it } from 'vitest';
import { base64url, codeChallengeS256, generateCodeVerifier } from './oauth-pkce';

describe('PKCE helpers', () => {
  it('makes a 43-character base64url verifier from 32 random bytes', () => {
    const verifier = generateCodeVerifier();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateCodeVerifier()).not.toBe(verifier);
  });

  it('computes the RFC 7636 appendix B S256 challenge', async () => {
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('encodes without padding or +/ characters', () => {
    expect(base64url(new Uint8Array([251, 255, 191]))).toBe('-_-_');
  });
});
