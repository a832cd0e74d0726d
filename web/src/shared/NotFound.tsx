import type { ReactNode } from 'react';
import { useT } from '../i18n';
import { Link } from './router';
import { pagePath } from './page-routes';

/** A not-found state: what is missing, and where to go instead (no actions on what is not there). */
export function NotFound({ title, detail, back }: { title: string; detail: string; back: { to: string; label: string } }): ReactNode {
  return (
    <section className="page not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p className="muted">{detail}</p>
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
    </section>
  );
}

/** The page of a URL no page claims: says so and names the URL (the address bar keeps it). */
export function NotFoundPage(): ReactNode {
  const t = useT();
  return (
    <NotFound
      title={t('notFound.title')}
      detail={t('notFound.page', { path: window.location.pathname })}
      back={{ to: pagePath({ page: 'overview' }), label: t('notFound.toOverview') }}
    />
  );
}
