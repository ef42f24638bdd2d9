import { useSyncExternalStore } from 'react';
import { dismissToast, toastStore, type ToastKind } from '../../lib/toast';

const STYLES: Record<ToastKind, string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  info: 'border-slate-200 bg-white text-slate-900',
};

/** Top-right stack; polite for news, assertive for errors so screen readers announce failures at once. */
export function Toaster() {
  const items = useSyncExternalStore(toastStore.subscribe, toastStore.snapshot, toastStore.snapshot);
  return (
    // Below the 4rem sticky header, so a toast never covers the account menu or the sign-out button.
    <div className="pointer-events-none fixed top-20 right-4 z-[60] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2">
      {(['success', 'info', 'error'] as const).map((kind) => (
        <div
          key={kind}
          role={kind === 'error' ? 'alert' : 'status'}
          aria-live={kind === 'error' ? 'assertive' : 'polite'}
          className="flex flex-col gap-2"
        >
          {items
            .filter((item) => item.kind === kind)
            .map((item) => (
              <div
                key={item.id}
                data-testid="toast"
                className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${STYLES[kind]}`}
              >
                <p className="flex-1">{item.message}</p>
                <button
                  type="button"
                  onClick={() => dismissToast(item.id)}
                  className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100"
                  aria-label="Dismiss notification"
                >
                  ×
                </button>
              </div>
            ))}
        </div>
      ))}
    </div>
  );
}
