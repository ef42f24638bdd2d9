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
