import { Link, createFileRoute, stripSearchParams, useNavigate } from '@tanstack/react-router';
import * as v from 'valibot';
import { ArticleCard } from '../../components/news/article-card';
import { NewsletterForm } from '../../components/news/newsletter-form';
import { PublicPage } from '../../components/layout/public-page';
import { NEWS_FILTERS as FILTERS } from '../../components/news/categories';
import { articlesByCategory } from '../../content/articles';
import { useReadingList } from '../../lib/reading-list';
import { useDocumentTitle } from '../../lib/use-document-title';

/**
 * The category lives in the URL (?category=Compliance) so a filtered list can be shared; All is the default.
 * `?saved=true` shows the reading list: the articles saved with the Save button (kept in this browser).
 */
const newsSearch = v.object({
  category: v.optional(v.fallback(v.picklist(FILTERS), 'All'), 'All'),
  saved: v.optional(v.fallback(v.boolean(), false), false),
});

export const Route = createFileRoute('/news/')({
  validateSearch: newsSearch,
  // Defaults stay out of the address (issue 25 item 12: clean URLs, no `?category=All`).
  search: { middlewares: [stripSearchParams({ category: 'All' as const, saved: false })] },
  component: NewsPage,
});

function NewsPage() {
  useDocumentTitle('News & Insights');
  const { category, saved } = Route.useSearch();
  const navigate = useNavigate({ from: '/news/' });
  const readingList = useReadingList();
  const articles = saved
    ? articlesByCategory('All').filter((article) => readingList.includes(article.id))
    : articlesByCategory(category);

  return (
    <PublicPage>
      <section className="bg-gradient-to-b from-indigo-50 to-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900">News & Insights</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-700">
            Age-verification law in the UK, France, the US and the EU, privacy-preserving technology, and what
            compliance costs a business.
          </p>
        </div>
      </section>
      <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
          {FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              aria-pressed={!saved && category === filter}
              onClick={() =>
                void navigate({ search: filter === 'All' ? {} : { category: filter }, resetScroll: false })
              }
              className={`rounded-full px-4 py-1.5 text-sm font-medium transition-colors ${
                !saved && category === filter
                  ? 'bg-indigo-700 text-white'
                  : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
              }`}
            >
              {filter}
            </button>
          ))}
          <button
            type="button"
            aria-pressed={saved}
            onClick={() => void navigate({ search: saved ? {} : { saved: true }, resetScroll: false })}
            className={`rounded-full px-4 py-1.5 text-sm font-medium transition-colors ${
              saved
                ? 'bg-amber-600 text-white'
                : 'border border-amber-300 bg-amber-50 text-amber-900 hover:bg-amber-100'
            }`}
          >
            Reading list ({readingList.length})
          </button>
        </div>
        <p className="sr-only" aria-live="polite">
          {articles.length} articles
        </p>
        <h2 className="sr-only">Articles</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {articles.map((article) => (
            <ArticleCard key={article.id} article={article} />
          ))}
        </div>
        {articles.length === 0 && saved ? (
          <p className="mt-8 text-slate-700">
            Your reading list is empty. Open an article and press Save to keep it here; the list stays in this
            browser.{' '}
            <Link to="/news" className="font-medium text-indigo-700 underline">
              Browse all articles
            </Link>
          </p>
        ) : articles.length === 0 ? (
          <p className="mt-8 text-slate-700">No articles in this category yet.</p>
        ) : null}
        <div className="mt-16">
          <NewsletterForm />
        </div>
      </div>
    </PublicPage>
  );
}
