import { useCallback, useSyncExternalStore } from 'react';

/** The Save button's local reading list: article ids kept in this browser only. */
const KEY = 'attestly.readingList';
const listeners = new Set<() => void>();

function readIds(): number[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

let cached = '';
let snapshot: number[] = [];
function getSnapshot(): number[] {
  const raw = (() => {
    try {
      return localStorage.getItem(KEY) ?? '[]';
    } catch {
      return '[]';
    }
  })();
  if (raw !== cached) {
    cached = raw;
    snapshot = readIds();
  }
  return snapshot;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function toggleSaved(id: number): boolean {
  const ids = getSnapshot();
  const saved = !ids.includes(id);
  try {
    localStorage.setItem(KEY, JSON.stringify(saved ? [...ids, id] : ids.filter((item) => item !== id)));
  } catch {
    return !saved;
  }
  listeners.forEach((listener) => listener());
  return saved;
}

/** The ids on the reading list, in the order they were saved; re-renders when this or another tab changes it. */
export function useReadingList(): number[] {
  return useSyncExternalStore(subscribe, getSnapshot, () => []);
}

export function useSavedArticle(id: number): [boolean, () => boolean] {
  const ids = useSyncExternalStore(subscribe, getSnapshot, () => []);
  return [ids.includes(id), useCallback(() => toggleSaved(id), [id])];
}
