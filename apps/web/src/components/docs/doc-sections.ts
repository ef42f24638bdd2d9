/** The four documentation sections of spec 01 §2 "Documentation page"; each item is a heading of /docs/guide. */
export interface DocItem {
  title: string;
  slug: string;
}

export interface DocSection {
  title: string;
  description: string;
  items: DocItem[];
}

const item = (title: string): DocItem => ({
  title,
  slug: title
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, ''),
});

export const DOC_SECTIONS: DocSection[] = [
  {
    title: 'Getting Started',
    description: 'Create a partner account, register your site and run a first verification.',
    items: ['Account Setup', 'API Keys', 'First Verification', 'Testing Environment'].map(item),
  },
  {
    title: 'API Reference',
    description: 'How requests are authenticated, and where each endpoint is described.',
    items: ['Authentication', 'User Verification', 'Partner Management', 'Webhooks'].map(item),
  },
  {
    title: 'OAuth Integration',
    description: 'OpenID Connect with PKCE and consent, from redirect to claims.',
    items: ['OAuth Flow', 'Scopes & Permissions', 'Token Management', 'Wallet Proofs', 'Best Practices'].map(
      item,
    ),
  },
  {
    title: 'Security & Compliance',
    description: 'What the appliance keeps, for how long, and how you can prove it.',
    items: ['Data Protection', 'GDPR Compliance', 'Audit Logs', 'Security Best Practices'].map(item),
  },
];
