import type { ArticleCategory } from '../../content/articles';

/**
 * The news filter (spec 01 §2), 'All' first. Spelled out here rather than imported from the articles module so
 * that the route's search validation, which loads with the app, does not pull every article into the first
 * download; the types below (and a test) keep the two lists identical.
 */
export const NEWS_FILTERS = [
  'All',
  'Industry Insights',
  'Compliance',
  'Technology',
  'Industry Guides',
  'Privacy & UX',
  'Business Strategy',
] as const satisfies readonly ('All' | ArticleCategory)[];

export type NewsFilter = (typeof NEWS_FILTERS)[number];

type Missing = Exclude<ArticleCategory, NewsFilter>;
// Fails to compile if an article category is missing from the filter.
export const everyCategoryListed: Missing extends never ? true : Missing = true;
