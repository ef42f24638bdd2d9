import type { DocumentAnalysis, ReviewerDocumentAnalysis } from '@attestly/contracts';

/**
 * Reuse of one document on several accounts (issue 14: the keyed hash of its number) is a reviewer's concern only
 * (issue 21 item 13). Told to the uploader, "this document proves 1 other account" would say whether a found or
 * stolen document's owner has an account here. The reviewer's reading keeps the count and its reason; the owner's
 * views — the upload's answer, the verification list and status, the data export — leave both out.
 */

/** The review reason naming the other accounts, as the reviewer reads it. */
export function reuseReason(otherAccounts: number): string {
  return `this document already proves or is waiting to prove ${otherAccounts} other account${otherAccounts === 1 ? '' : 's'}`;
}

const REUSE = 'this document already proves or is waiting to prove \\d+ other accounts?';
const REUSE_ALONE = new RegExp(`^${REUSE}$`);

/**
 * A reviewer's text (a decision or a system note: reasons joined by "; " after a "…: " lead) without the reuse
 * reason: "Not bound to the holder: a; <reuse>; b" reads "Not bound to the holder: a; b".
 */
export function withoutReuse(text: string): string {
  return text
    .replace(new RegExp(`;\\s*${REUSE}`, 'g'), '')
    .replace(new RegExp(`${REUSE};\\s*`, 'g'), '')
    .replace(new RegExp(`:\\s*${REUSE}`, 'g'), '')
    .replace(new RegExp(REUSE, 'g'), '');
}

/** The document reading as its owner sees it: without the reuse count and the reason that names it. */
export function ownerDocumentAnalysis(analysis: ReviewerDocumentAnalysis): DocumentAnalysis;
export function ownerDocumentAnalysis(analysis: ReviewerDocumentAnalysis | null): DocumentAnalysis | null;
export function ownerDocumentAnalysis(analysis: ReviewerDocumentAnalysis | null): DocumentAnalysis | null {
  if (!analysis) return null;
  const { holder_binding: binding, ...reading } = analysis;
  if (!binding) return reading;
  const { document_used_by_other_accounts: _reviewersOnly, ...shown } = binding;
  return {
    ...reading,
    holder_binding: {
      ...shown,
      review_reasons: shown.review_reasons.filter((reason) => !REUSE_ALONE.test(reason)),
    },
  };
}
