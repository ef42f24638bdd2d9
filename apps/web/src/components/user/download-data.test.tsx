import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../auth/token-storage';
import { PROFILE, fakeApi, renderApp } from '../../test/render-app';

/** jsdom's Blob has no text(): read it the way browsers always could. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('downloading one’s data on /security', () => {
  it('fetches the export with the user’s token and saves it as a dated JSON file', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    const exported = {
      format: 'attestly.user-export/1',
      exported_at: '2026-11-26T09:00:00.000Z',
      profile: PROFILE,
    };
    const calls = fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/sessions': { body: { sessions: [], total_count: 0 } },
      'GET /api/v1/users/export': { body: exported },
    });
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:export';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });

    await renderApp('/security');
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));

    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]?.download).toBe('attestly-data-2026-11-26.json');
    expect(clicks[0]?.href).toBe('blob:export');
    expect(JSON.parse(await readBlob(created[0]!))).toEqual(exported);
    const request = calls.find((call) => call.url.endsWith('/users/export'));
    expect(request?.headers.Authorization).toBe('Bearer atu_valid');
    expect(await screen.findByText('Your data has been downloaded')).toBeInTheDocument();
  });

  it('shows the server’s message when the download is refused', async () => {
    tokens.set('user', 'atu_valid', { remember: false });
    fakeApi({
      'GET /api/v1/users/profile': { body: PROFILE },
      'GET /api/v1/users/sessions': { body: { sessions: [], total_count: 0 } },
      'GET /api/v1/users/export': {
        status: 429,
        body: {
          detail: 'You have downloaded your data several times in the last hour. Please try again later.',
          code: 'rate_limited',
        },
      },
    });
    await renderApp('/security');
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(
      await screen.findByText(
        'You have downloaded your data several times in the last hour. Please try again later.',
      ),
    ).toBeInTheDocument();
  });
});
