import { Link, createFileRoute } from '@tanstack/react-router';
import { ArticleCard, ArticleImage, CategoryBadge } from '../../components/news/article-card';
import { longDate } from '../../components/news/article-meta';
import { NewsletterForm } from '../../components/news/newsletter-form';
import { PublicPage } from '../../components/layout/public-page';
import { Button } from '../../components/ui/button';
import { findArticle, relatedArticles, type Article } from '../../content/articles';
import { useSavedArticle } from '../../lib/reading-list';
import { toast } from '../../lib/toast';
import { useDocumentTitle } from '../../lib/use-document-title';

export const Route = createFileRoute('/news/$id')({
  // spec 01 §2: the id is parsed as an integer; anything else finds no article.
  params: {
    parse: (raw) => ({ id: /^\d+$/.test(raw.id) ? Number.parseInt(raw.id, 10) : Number.NaN }),
    stringify: (params) => ({ id: String(params.id) }),
  },
  component: ArticlePage,
});

function ArticlePage() {
  const { id } = Route.useParams();
  const article = Number.isInteger(id) ? findArticle(id) : undefined;
  return <PublicPage>{article ? <ArticleView article={article} /> : <PostNotFound />}</PublicPage>;
}

function PostNotFound() {
  useDocumentTitle('Post Not Found');
  return (
    <div className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">Post Not Found</h1>
      <p className="mt-4 text-slate-700">The blog post you&apos;re looking for doesn&apos;t exist.</p>
      <Link to="/news" className="mt-8 inline-block font-semibold text-indigo-700 hover:text-indigo-900">
        ← Back to News
      </Link>
    </div>
  );
}

/** Web Share API where the browser has it; otherwise the link goes to the clipboard. */
async function share(article: Article) {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: article.title, text: article.excerpt, url });
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success('Copied to clipboard');
  } catch {
    toast.error(`Copy this link to share: ${url}`);
  }
}

function ArticleView({ article }: { article: Article }) {
  useDocumentTitle(article.title);
  const [saved, toggleSaved] = useSavedArticle(article.id);
  const related = relatedArticles(article, 3);

  return (
    <>
      <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <Link to="/news" className="text-sm font-semibold text-indigo-700 hover:text-indigo-900">
          ← Back to News
        </Link>
        <header className="mt-6">
          <CategoryBadge category={article.category} />
          <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {article.title}
          </h1>
          <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
            <span className="font-medium text-slate-900">{article.author}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={article.date}>{longDate(article.date)}</time>
            <span aria-hidden="true">·</span>
            <span>{article.readTime}</span>
          </div>
          <div className="mt-5 flex gap-2">
            <Button
              variant="secondary"
              aria-pressed={saved}
              onClick={() => {
                const nowSaved = toggleSaved();
                toast.success(nowSaved ? 'Saved to your reading list' : 'Removed from your reading list');
              }}
            >
              {saved ? 'Saved' : 'Save'}
            </Button>
            <Button variant="secondary" onClick={() => void share(article)}>
              Share
            </Button>
            <Link
              to="/news"
              search={{ saved: true }}
              className="self-center px-2 text-sm font-medium text-indigo-700 underline"
            >
              Reading list
            </Link>
          </div>
        </header>
        <ArticleImage article={article} className="mt-8 h-56 rounded-2xl sm:h-72" />
        <div className="prose-body mt-8" dangerouslySetInnerHTML={{ __html: article.content }} />
        {article.tags.length > 0 ? (
          <div className="mt-10">
            <h2 className="text-sm font-semibold text-slate-900">Tags</h2>
            <ul className="mt-2 flex flex-wrap gap-2">
              {article.tags.map((tag) => (
                <li
                  key={tag}
                  className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-800"
                >
                  {tag}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <aside
          aria-labelledby="author-title"
          className="mt-10 rounded-xl border border-slate-200 bg-slate-50 p-6"
        >
          <h2 id="author-title" className="text-base font-semibold text-slate-900">
            About the author
          </h2>
          <p className="mt-1 font-medium text-slate-900">{article.author}</p>
          <p className="mt-2 text-sm leading-6 text-slate-700">{article.authorBio}</p>
        </aside>
        <div className="mt-10">
          <NewsletterForm
            title="Get articles like this"
            note="No spam. Unsubscribe at any time with one click."
          />
        </div>
      </article>
      {related.length > 0 ? (
        <section aria-labelledby="related-title" className="border-t border-slate-200 bg-slate-50">
          <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
            <h2 id="related-title" className="text-2xl font-bold text-slate-900">
              Related Articles
            </h2>
            <div className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {related.map((item) => (
                <ArticleCard key={item.id} article={item} />
              ))}
            </div>
          </div>
        </section>
      ) : null}
    </>
  );
}
