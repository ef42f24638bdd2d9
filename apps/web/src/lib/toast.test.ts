import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, toast, toastStore } from './toast';

afterEach(() => {
  vi.useRealTimers();
});

describe('toasts (spec 01 §8)', () => {
  it('stay for 4 seconds', () => {
    vi.useFakeTimers();
    expect(TOAST_DURATION_MS).toBe(4000);
    toast.success('Profile updated successfully!');
    expect(toastStore.snapshot().map((item) => item.message)).toContain('Profile updated successfully!');
    vi.advanceTimersByTime(3999);
    expect(toastStore.snapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toastStore.snapshot()).toHaveLength(0);
  });
});

describe('in-page toast regions (issue 25 item 12)', () => {
  it('name one active region at a time, the first mounted, and hand over when it goes', () => {
    expect(toastStore.activeRegion()).toBeNull();
    const outer = toastStore.addRegion();
    const inner = toastStore.addRegion();
    expect(toastStore.regionCount()).toBe(2);
    expect(toastStore.activeRegion()).toBe(outer.id);
    outer.remove();
    expect(toastStore.activeRegion()).toBe(inner.id);
    inner.remove();
    expect(toastStore.activeRegion()).toBeNull();
    expect(toastStore.regionCount()).toBe(0);
  });
});
