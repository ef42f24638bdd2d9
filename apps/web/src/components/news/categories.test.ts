import { describe, expect, it } from 'vitest';
import { ARTICLE_CATEGORIES, ARTICLES, articlesByCategory } from '../../content/articles';
import { NEWS_FILTERS } from './categories';

describe('news filter', () => {
  it('is All followed by exactly the article categories, in order', () => {
    expect(NEWS_FILTERS).toEqual(['All', ...ARTICLE_CATEGORIES]);
  });

  it('has articles behind every category button', () => {
    for (const category of ARTICLE_CATEGORIES) expect(articlesByCategory(category).length).toBeGreaterThan(0);
    expect(articlesByCategory('All')).toHaveLength(ARTICLES.length);
  });
});
