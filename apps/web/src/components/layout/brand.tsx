import { Link } from '@tanstack/react-router';

export function Brand({ to = '/' }: { to?: '/' | '/dashboard' }) {
  return (
    <Link to={to} className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="#4338ca" />
        <path
          d="M9 16.5l4.5 4.5L23 11.5"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>Attestly</span>
    </Link>
  );
}
