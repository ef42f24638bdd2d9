import type { ArticleCategory } from '../../content/articles';

/**
 * Per-article imagery, drawn rather than fetched: a composition generated from the article's id (so every article
 * has its own picture, the same on every visit) in its category's palette, with the category's emblem. Pure SVG:
 * no request, no stock photo, sharp at any size.
 */
const PALETTES: Record<ArticleCategory, { from: string; to: string; ink: string[] }> = {
  'Industry Insights': { from: '#312e81', to: '#4f46e5', ink: ['#a5b4fc', '#c7d2fe', '#38bdf8', '#e0e7ff'] },
  Compliance: { from: '#064e3b', to: '#0d9488', ink: ['#6ee7b7', '#a7f3d0', '#fde68a', '#ccfbf1'] },
  Technology: { from: '#0c4a6e', to: '#0284c7', ink: ['#7dd3fc', '#bae6fd', '#c4b5fd', '#e0f2fe'] },
  'Industry Guides': { from: '#7c2d12', to: '#ea580c', ink: ['#fdba74', '#fed7aa', '#fde047', '#ffedd5'] },
  'Privacy & UX': { from: '#581c87', to: '#c026d3', ink: ['#f0abfc', '#f5d0fe', '#a5b4fc', '#fae8ff'] },
  'Business Strategy': { from: '#1e293b', to: '#475569', ink: ['#cbd5e1', '#e2e8f0', '#fcd34d', '#f1f5f9'] },
};

/** One emblem per category, drawn in a 24-unit box (shield, scales, chip, map, eye, chart). */
const EMBLEMS: Record<ArticleCategory, string> = {
  'Industry Insights': 'M3 20h18M6 16l4-5 3 3 5-7M18 7h-3M18 7v3',
  Compliance: 'M12 2l8 3v6c0 5-3.5 8.5-8 11-4.5-2.5-8-6-8-11V5zM8.5 12l2.5 2.5 4.5-5',
  Technology: 'M7 7h10v10H7zM10 10h4v4h-4zM10 3v4M14 3v4M10 17v4M14 17v4M3 10h4M3 14h4M17 10h4M17 14h4',
  'Industry Guides': 'M3 6l6-3 6 3 6-3v15l-6 3-6-3-6 3zM9 3v15M15 6v15',
  'Privacy & UX': 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zM12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6',
  'Business Strategy': 'M4 20V10M10 20V4M16 20v-7M22 20H2',
};

/** mulberry32: a tiny seeded generator, so the same article always gets the same picture. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ArtShape {
  kind: 'circle' | 'ring' | 'bar';
  x: number;
  y: number;
  size: number;
  colour: string;
  opacity: number;
}

/** The shapes of an article's picture on a 400×200 canvas: deterministic in the id, varied between ids. */
export function articleArtShapes(id: number, category: ArticleCategory): ArtShape[] {
  const random = seeded(id * 2654435761);
  const { ink } = PALETTES[category];
  const kinds: ArtShape['kind'][] = ['circle', 'ring', 'bar'];
  return Array.from({ length: 7 + Math.floor(random() * 5) }, () => ({
    kind: kinds[Math.floor(random() * kinds.length)] as ArtShape['kind'],
    x: Math.round(random() * 400),
    y: Math.round(random() * 200),
    size: Math.round(14 + random() * 70),
    colour: ink[Math.floor(random() * ink.length)] as string,
    opacity: Math.round((0.18 + random() * 0.5) * 100) / 100,
  }));
}

export function ArticleArt({
  id,
  category,
  className = '',
}: {
  id: number;
  category: ArticleCategory;
  className?: string;
}) {
  const palette = PALETTES[category];
  const gradient = `article-art-${id}`;
  return (
    <svg
      viewBox="0 0 400 200"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      focusable="false"
      data-testid="article-art"
      className={`block w-full ${className}`}
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={palette.from} />
          <stop offset="1" stopColor={palette.to} />
        </linearGradient>
      </defs>
      <rect width="400" height="200" fill={`url(#${gradient})`} />
      {articleArtShapes(id, category).map((shape, index) =>
        shape.kind === 'bar' ? (
          <rect
            key={index}
            x={shape.x - shape.size}
            y={shape.y - 6}
            width={shape.size * 2}
            height={12}
            rx={6}
            fill={shape.colour}
            opacity={shape.opacity}
            transform={`rotate(${((shape.x + shape.y) % 60) - 30} ${shape.x} ${shape.y})`}
          />
        ) : (
          <circle
            key={index}
            cx={shape.x}
            cy={shape.y}
            r={shape.size / 2}
            fill={shape.kind === 'circle' ? shape.colour : 'none'}
            stroke={shape.kind === 'ring' ? shape.colour : 'none'}
            strokeWidth={shape.kind === 'ring' ? 6 : 0}
            opacity={shape.opacity}
          />
        ),
      )}
      <g transform="translate(168 68) scale(2.6)" opacity="0.92">
        <circle cx="12" cy="12" r="17" fill="#ffffff" opacity="0.16" />
        <path
          d={EMBLEMS[category]}
          fill="none"
          stroke="#ffffff"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>
    </svg>
  );
}
