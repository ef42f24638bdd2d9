import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SiteView } from '@attestly/contracts';
import { partnerProfileQueryOptions } from '../../api/partner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useDocumentTitle } from '../../lib/use-document-title';
import { WebhooksSection } from '../webhooks/webhooks-section';
import { AddSiteDialog } from './add-site-dialog';
import { ApiKeysPanel } from './api-keys-panel';
import { EditProfileButton } from './profile-section';
import { SitesSection } from './sites-section';
import { Badge, PageTitle, Panel } from './ui';

/** The partner summary card (spec 01 §2): partner_name, id and the status badge. */
export function PartnerSummaryCard() {
  const profile = useQuery(partnerProfileQueryOptions());
  if (!profile.data) return null;
  const partner = profile.data;
  return (
    <Panel
      title={partner.partner_name}
      actions={
        <div className="flex items-center gap-2">
          <Badge value={partner.status} />
          <EditProfileButton />
        </div>
      }
    >
      <dl className="grid gap-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-600">Partner ID</dt>
          <dd className="font-mono text-xs break-all">{partner.id}</dd>
        </div>
        <div>
          <dt className="text-slate-600">E-mail</dt>
          <dd>{partner.email}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Plan</dt>
          <dd>{partner.plan}</dd>
        </div>
      </dl>
    </Panel>
  );
}

/**
 * The management page (spec 01 §2 "Partner site management"): profile, sites, API keys (a modal) and webhooks on one
 * screen. Each part is a section component; /partner/sites and /partner/api-keys show one part each, so that every
 * section has a place of its own in the side navigation (issue 25 item 13).
 */
export function ManagementPage() {
  useDocumentTitle('Site management');
  const [addOpen, setAddOpen] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  const [secretSite, setSecretSite] = useState<SiteView | null>(null);
  return (
    <div className="space-y-6">
      <PageTitle title="Site management">
        <Button variant="secondary" onClick={() => setKeysOpen(true)}>
          API Keys
        </Button>
        <Button onClick={() => setAddOpen(true)}>Add Site</Button>
      </PageTitle>
      <PartnerSummaryCard />
      <SitesSection secretSite={secretSite} onSecret={setSecretSite} />
      <WebhooksSection />
      <AddSiteDialog open={addOpen} onOpenChange={setAddOpen} onSecret={setSecretSite} />
      <Dialog open={keysOpen} onOpenChange={setKeysOpen} title="API keys" size="xl">
        <ApiKeysPanel />
      </Dialog>
    </div>
  );
}

/** /partner/sites: the partner's sites (OIDC clients) with Add Site. */
export function SitesPage() {
  useDocumentTitle('Sites');
  const [addOpen, setAddOpen] = useState(false);
  const [secretSite, setSecretSite] = useState<SiteView | null>(null);
  return (
    <div className="space-y-6">
      <PageTitle title="Sites">
        <Button onClick={() => setAddOpen(true)}>Add Site</Button>
      </PageTitle>
      <SitesSection secretSite={secretSite} onSecret={setSecretSite} />
      <AddSiteDialog open={addOpen} onOpenChange={setAddOpen} onSecret={setSecretSite} />
    </div>
  );
}

/** /partner/api-keys: the API keys on a page of their own (the management page keeps its modal). */
export function ApiKeysPage() {
  useDocumentTitle('API keys');
  return (
    <div className="space-y-6">
      <PageTitle title="API keys" />
      <Panel title="Your API keys">
        <ApiKeysPanel />
      </Panel>
    </div>
  );
}
