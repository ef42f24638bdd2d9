/**
 * The landing page's product picture: what a person actually sees when a partner site asks for proof — the consent
 * card with the site's name and destination, the facts requested in the consent screen's words, and the yes/no
 * the site will learn. Drawn with the app's own styles so it stays true to the product as the screens change.
 */
export function ProductVisual() {
  return (
    <figure
      role="img"
      aria-label="Example: a partner site asks to confirm that you are 18 or over; Attestly shows what it will learn — a yes, never your birth date"
      className="relative mx-auto w-full max-w-md"
    >
      <div aria-hidden="true" className="absolute -inset-6 -z-10 rounded-[2rem] bg-indigo-200/40 blur-2xl" />
      <div aria-hidden="true" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-xl">
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-lg bg-amber-500 text-lg font-bold text-white">
            A
          </span>
          <div className="min-w-0">
            <p className="font-semibold text-slate-900">Acme Games</p>
            <p className="text-xs text-slate-600">returns you to shop.example.com</p>
          </div>
          <span className="ml-auto rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">
            Verified
          </span>
        </div>
        <p className="mt-5 text-sm font-medium text-slate-900">Acme Games would like to confirm:</p>
        <ul className="mt-3 space-y-2 text-sm">
          <li className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
            <span className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded bg-indigo-700 text-[10px] text-white">
              ✓
            </span>
            <span>
              <span className="font-medium text-slate-900">Age 18 or over</span>
              <span className="block text-xs text-slate-600">
                Whether you are at least 18 — not your birth date
              </span>
            </span>
          </li>
          <li className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
            <span className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded bg-indigo-700 text-[10px] text-white">
              ✓
            </span>
            <span>
              <span className="font-medium text-slate-900">Verified location</span>
              <span className="block text-xs text-slate-600">Your verified country</span>
            </span>
          </li>
        </ul>
        <div className="mt-5 rounded-lg bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100">
          <span className="text-slate-400">{'// what Acme Games receives'}</span>
          <br />
          {'{ "age_over_18": true, "location": { "country": "GB" } }'}
        </div>
        <div className="mt-5 flex gap-3">
          <span className="flex-1 rounded-lg border border-slate-300 py-2 text-center text-sm font-semibold text-slate-800">
            Deny
          </span>
          <span className="flex-1 rounded-lg bg-indigo-700 py-2 text-center text-sm font-semibold text-white">
            Allow
          </span>
        </div>
      </div>
    </figure>
  );
}
