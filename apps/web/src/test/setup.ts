import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom has no layout: the router's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;
// Nor does it scroll elements: the combobox keeps its active option in view with this.
Element.prototype.scrollIntoView = () => undefined;
