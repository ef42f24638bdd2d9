import { parse } from 'tldts';
import { isLoopbackHost } from '@attestly/contracts';
import { AppError } from '../../../errors';

/**
 * Why a site's declared domain cannot name it, or null (issue 21 item 14). The consent screen shows the domain as
 * who is asking, and redirect URIs may lie on any subdomain of it (redirectUriOutsideDomain): a public suffix —
 * `co.uk`, or a hosting suffix such as `github.io` from the list's private section — is shared by unrelated
 * owners, so a site declaring one would borrow the name of all of them. Checked against the Public Suffix List as
 * shipped in `tldts` (its ICANN and private sections). IP addresses and loopback hosts (sandbox sites) are
 * addresses, not names under a suffix, and stay allowed.
 */
export function publicSuffixProblem(domain: string): string | null {
  const host = domain.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (isLoopbackHost(host)) return null;
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || parsed.domain !== null) return null;
  if (parsed.isIcann || parsed.isPrivate) {
    return `${host} is a public suffix shared by unrelated sites (like co.uk or github.io); enter your site's own domain, such as shop.${host}`;
  }
  return `${host} is not a domain anyone can register; enter your site's full domain, such as shop.example.com`;
}

/** 422 in the error envelope, on the `domain` field, when the domain is a public suffix. */
export function assertOwnDomain(domain: string): void {
  const problem = publicSuffixProblem(domain);
  if (problem)
    throw new AppError(422, 'sites.public_suffix', problem, [{ path: 'domain', message: problem }]);
}
