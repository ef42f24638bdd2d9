import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findArticle } from '../../content/articles';
import { fakeApi, renderApp } from '../../test/render-app';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the reading list behind the article Save button', () => {
  it('can be opened: a saved article is listed under Reading list on /news, and only it', async () => {
    fakeApi({});
    const article = findArticle(1)!;
    const { router } = await renderApp('/news/1');
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(screen.getByRole('button', { name: 'Saved' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('link', { name: 'Reading list' }));
    expect(router.state.location.pathname).toBe('/news');
    expect(router.state.location.search).toMatchObject({ saved: true });
    const filters = screen.getByRole('group', { name: 'Filter by category' });
    expect(within(filters).getByRole('button', { name: 'Reading list (1)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const cards = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(cards).toEqual([article.title]);
  });

  it('says how to fill an empty reading list', async () => {
    fakeApi({});
    await renderApp('/news?saved=true');
    expect(await screen.findByText(/Your reading list is empty/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reading list (0)' })).toBeInTheDocument();
  });
});
