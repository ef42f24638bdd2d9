import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ARTICLES } from '../../content/articles';
import { ArticleArt, articleArtShapes } from './article-art';

describe('generated article imagery', () => {
  it('gives every article its own picture, the same on every render', () => {
    const pictures = ARTICLES.map((article) => {
      const { container, unmount } = render(<ArticleArt id={article.id} category={article.category} />);
      const markup = container.innerHTML;
      unmount();
      return markup;
    });
    expect(new Set(pictures).size).toBe(ARTICLES.length);
    const first = ARTICLES[0]!;
    expect(articleArtShapes(first.id, first.category)).toEqual(articleArtShapes(first.id, first.category));
  });

  it('draws in the category’s palette with its emblem, and is hidden from screen readers', () => {
    const { container } = render(<ArticleArt id={3} category="Compliance" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(container.querySelector('stop')?.getAttribute('stop-color')).toBe('#064e3b');
    expect(container.querySelectorAll('path')).toHaveLength(1);
  });
});
