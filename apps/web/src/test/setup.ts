import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { dismissToast, toastStore } from '../lib/toast';

afterEach(() => {
  cleanup();
  // The toast store outlives a render (4 s): a toast left by one test would be found twice by the next.
  for (const item of toastStore.snapshot()) dismissToast(item.id);
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom has no layout: the router's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;
// Nor does it scroll elements: the combobox keeps its active option in view with this.
Element.prototype.scrollIntoView = () => undefined;
