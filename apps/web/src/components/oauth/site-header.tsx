import type { InteractionDetails } from '@attestly/contracts';

/** Who is asking: the site's icon, name and domain, and the partner behind it (consent screen, DESIGN.md §4). */
export function SiteHeader({ site }: { site: InteractionDetails['site'] }) {
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
