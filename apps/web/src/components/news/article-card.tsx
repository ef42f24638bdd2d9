import { Link } from '@tanstack/react-router';
import type { Article } from '../../content/articles';
import { ArticleArt } from './article-art';
import { shortDate } from './article-meta';

/** An article's own generated picture (see ArticleArt), sized by the caller. */
export function ArticleImage({ article, className = '' }: { article: Article; className?: string }) {
  return (
    <div className={`overflow-hidden ${className}`}>
      <ArticleArt id={article.id} category={article.category} className="h-full" />
    </div>
  );
}

export function CategoryBadge({ category }: { category: string }) {
  return (
    <span className="inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-semibold text-indigo-800">
      {category}
    </span>
  );
}

/** A card of the news grid: title clamped to 2 lines, excerpt to 3. */
export function ArticleCard({ article }: { article: Article }) {
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <ArticleImage article={article} className="h-40" />
      <div className="flex flex-1 flex-col p-5">
        <div>
          <CategoryBadge category={article.category} />
        </div>
        <h3 className="mt-3 line-clamp-2 text-lg font-semibold text-slate-900">{article.title}</h3>
        <p className="mt-2 line-clamp-3 text-sm leading-6 text-slate-700">{article.excerpt}</p>
        <div className="mt-auto pt-4 text-xs text-slate-700">
          <p className="font-medium text-slate-800">{article.author}</p>
          <p>
            <time dateTime={article.date}>{shortDate(article.date)}</time> · {article.readTime}
          </p>
        </div>
        <Link
          to="/news/$id"
          params={{ id: article.id }}
          className="mt-4 text-sm font-semibold text-indigo-700 hover:text-indigo-900"
          aria-label={`Read More: ${article.title}`}
        >
          Read More →
        </Link>
      </div>
    </article>
  );
}
