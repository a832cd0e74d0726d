import type { ReactNode } from 'react';
import { Link } from '../../shared/router';

/** A number on the overview, linked to the list behind it. */
export function Stat({ value, label, to, tone }: { value: number | string; label: string; to: string; tone?: 'good' | 'bad' | 'warn' }): ReactNode {
  return (
    <Link to={to} className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
    </Link>
  );
}

/** A card of the overview grid. */
export function Card({ title, id, children, wide }: { title: string; id: string; children: ReactNode; wide?: boolean }): ReactNode {
  return (
    <section className={`card overview-card${wide ? ' overview-wide' : ''}`} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
