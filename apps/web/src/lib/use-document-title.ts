import { useEffect } from 'react';

/** Each page names itself in the tab title (and for screen readers announcing navigation). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Attestly` : 'Attestly';
  }, [title]);
}
