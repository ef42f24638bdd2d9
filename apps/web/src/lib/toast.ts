/** Toast notifications (spec 01 §8: top-right, 4 seconds). A tiny external store; <Toaster /> renders it. */
export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

export const TOAST_DURATION_MS = 4000;

type Listener = () => void;
let items: Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((listener) => listener());

export function dismissToast(id: number): void {
  items = items.filter((item) => item.id !== id);
  emit();
}

function show(kind: ToastKind, message: string): number {
  const id = nextId++;
  items = [...items, { id, kind, message }];
  emit();
  setTimeout(() => dismissToast(id), TOAST_DURATION_MS);
  return id;
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};

/**
 * How many in-page toast regions are mounted (components/ui/toaster.tsx). While one is, toasts take their own room
 * in the page under its header instead of floating over it, so they never cover the page's actions.
 */
let regions: number[] = [];
let nextRegion = 1;

export const toastStore = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: () => items,
  regionCount: () => regions.length,
  /** The region that shows the toasts: the first mounted, so that two on one screen never show them twice. */
  activeRegion: () => regions[0] ?? null,
  /** Registers an in-page region; returns its id and its unregister function. */
  addRegion(): { id: number; remove: () => void } {
    const id = nextRegion++;
    regions = [...regions, id];
    emit();
    return {
      id,
      remove: () => {
        regions = regions.filter((region) => region !== id);
        emit();
      },
    };
  },
};
