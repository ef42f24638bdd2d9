import { useLocation } from '@tanstack/react-router';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { dismissToast, toastStore, type Toast, type ToastKind } from '../../lib/toast';

const STYLES: Record<ToastKind, string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  info: 'border-slate-200 bg-white text-slate-900',
};

/** The toasts of each kind: polite for news, assertive for errors so screen readers announce failures at once. */
function ToastStack({ items, onDismiss }: { items: Toast[]; onDismiss?: () => void }) {
  return (
    <>
      {(['success', 'info', 'error'] as const).map((kind) => (
        <div
          key={kind}
          role={kind === 'error' ? 'alert' : 'status'}
          aria-live={kind === 'error' ? 'assertive' : 'polite'}
          className="flex flex-col gap-2 empty:hidden"
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
                  onClick={() => {
                    dismissToast(item.id);
                    onDismiss?.();
                  }}
                  className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100"
                  aria-label="Dismiss notification"
                >
                  ×
                </button>
              </div>
            ))}
        </div>
      ))}
    </>
  );
}

/**
 * The root's fallback: a top-right stack (spec 01 §8) for screens without a header of their own. Screens with a
 * header (public pages, the account and partner areas, the back office) mount a <ToastRegion /> instead, and this
 * one then renders nothing.
 */
export function Toaster() {
  const items = useSyncExternalStore(toastStore.subscribe, toastStore.snapshot, toastStore.snapshot);
  const regions = useSyncExternalStore(toastStore.subscribe, toastStore.regionCount, toastStore.regionCount);
  if (regions > 0) return null;
  return (
    <div className="pointer-events-none fixed top-20 right-4 z-[60] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2">
      <ToastStack items={items} />
    </div>
  );
}

/**
 * Toasts in the page's own flow, right under its sticky header and aligned to the right (spec 01 §8: top-right):
 * a toast takes room of its own and pushes the page down rather than floating over it, so it never covers the
 * page's main actions (issue 25 item 12). Sticky, so a toast that arrives after scrolling still shows under the
 * header; above dialogs (z-60 over their z-50 overlay), so an error from a dialog's action is seen.
 *
 * The room a toast took is kept when it expires, until the page changes or the visitor dismisses a toast: a toast
 * leaving on its timer would otherwise move everything below it up at a moment nobody chose, and a tap aimed at a
 * link or button landed on the one below it (seen in the back office's menu at 360 px, a few seconds after
 * signing in). The page moves only when the visitor acts: a new toast comes from what they just did.
 */
export function ToastRegion({
  maxWidth = 'max-w-7xl',
  underHeader = true,
}: {
  maxWidth?: string;
  /** False on screens without a sticky header (the sign-in card): the region sticks to the top of the screen. */
  underHeader?: boolean;
}) {
  const all = useSyncExternalStore(toastStore.subscribe, toastStore.snapshot, toastStore.snapshot);
  const active = useSyncExternalStore(toastStore.subscribe, toastStore.activeRegion, toastStore.activeRegion);
  const pathname = useLocation({ select: (location) => location.pathname });
  const [id, setId] = useState<number | null>(null);
  const stack = useRef<HTMLDivElement>(null);
  // The height the region keeps: the tallest its toasts have been since the page changed (px).
  const [room, setRoom] = useState(0);
  // Counts the visitor's dismissals: each releases the room once the toast has left the page.
  const [dismissals, setDismissals] = useState(0);
  useEffect(() => {
    const region = toastStore.addRegion();
    setId(region.id);
    return region.remove;
  }, []);
  useLayoutEffect(() => setRoom(stack.current?.offsetHeight ?? 0), [pathname, dismissals]);
  useLayoutEffect(() => {
    const element = stack.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setRoom((kept) => Math.max(kept, element.offsetHeight)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const items = id !== null && active === id ? all : [];
  return (
    <div
      data-testid="toast-region"
      style={room ? { minHeight: room } : undefined}
      className={`pointer-events-none sticky z-[60] w-full ${underHeader ? 'top-16' : 'top-0'}`}
    >
      <div
        ref={stack}
        className={`mx-auto flex ${maxWidth} flex-col items-end ${underHeader ? 'px-4 sm:px-6' : ''} ${items.length ? 'pt-3' : ''}`}
      >
        <div className={`flex w-full flex-col gap-2 ${underHeader ? 'sm:w-[24rem]' : ''}`}>
          <ToastStack items={items} onDismiss={() => setDismissals((n) => n + 1)} />
        </div>
      </div>
    </div>
  );
}
