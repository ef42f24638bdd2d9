import type { InteractionDetails } from '@attestly/contracts';

/**
 * A partner's sandbox site asks (issue 21 item 14): test sites are made by any partner for trying Attestly out, so
 * the sign-in and consent screens say so before anyone types a password or shares a proof.
 */
function SandboxWarning() {
  return (
    <p
      role="note"
      className="rounded-lg border-2 border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="sandbox-warning"
    >
      <span className="block font-bold uppercase tracking-wide">Test site — do not enter real data</span>
      <span className="block">
        This is a partner’s sandbox for trying Attestly out. Use a test account, not your own.
      </span>
    </p>
  );
}

/** Who is asking: the site's icon, name and domain, and the partner behind it (consent screen, DESIGN.md §4). */
export function SiteHeader({ site }: { site: InteractionDetails['site'] }) {
  return (
    <div className="space-y-3">
      {site.sandbox ? <SandboxWarning /> : null}
      <SiteCard site={site} />
    </div>
  );
}

function SiteCard({ site }: { site: InteractionDetails['site'] }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      {site.icon_url ? (
        <img src={site.icon_url} alt="" className="size-10 rounded-md object-cover" />
      ) : (
        <div
          aria-hidden="true"
          className="flex size-10 items-center justify-center rounded-md bg-indigo-100 font-bold text-indigo-800"
        >
          {site.site_name.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div>
        <p className="font-semibold text-slate-900">{site.site_name}</p>
        <p className="text-sm text-slate-700">
          {site.domain}
          {site.partner_name ? ` · ${site.partner_name}` : ''}
        </p>
        {site.redirect_host ? (
          <p className="text-xs text-slate-700">
            Returns you to <span className="font-semibold text-slate-900">{site.redirect_host}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}
