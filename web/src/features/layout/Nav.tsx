import { useState, type FormEvent, type ReactNode } from 'react';
import type { Role } from '@pilothouse/wire/types';
import { Link, navigate, routePath, type Route } from '../../shared/router';
import { useT } from '../../i18n';
import { kindLabel, navKinds } from '../resources/kinds';
import { PageLinks, AdminPageLinks } from './PageLinks';

/** Left navigation: resource kinds, a box for any other kind, admin pages, settings. */
export function Nav({ route, role }: { route: Route; role: Role }): ReactNode {
  const t = useT();
  const [kind, setKind] = useState('');
  const openKind = (event: FormEvent): void => {
    event.preventDefault();
    const value = kind.trim();
    if (/^[a-zA-Z][a-zA-Z0-9.-]*$/.test(value)) navigate(routePath({ page: 'resources', kind: value }));
  };
  const currentKind = route.page === 'resources' ? route.kind : undefined;
  const custom = currentKind && !(navKinds as readonly string[]).includes(currentKind) ? currentKind : undefined;
  return (
    <nav className="sidenav" aria-label={t('nav.label')}>
      <PageLinks route={route} />
      <h2 className="nav-heading">{t('nav.resources')}</h2>
      <ul>
        {navKinds.map((name) => (
          <li key={name}>
            <Link to={routePath({ page: 'resources', kind: name })} current={currentKind === name}>
              {kindLabel(name, t)}
            </Link>
          </li>
        ))}
        {custom && (
          <li>
            <Link to={routePath({ page: 'resources', kind: custom })} current>
              {custom}
            </Link>
          </li>
        )}
      </ul>
      <form className="kind-box" onSubmit={openKind}>
        <label htmlFor="kind-input" className="small muted">
          {t('nav.kindBox')}
        </label>
        <div className="kind-row">
          <input
            id="kind-input"
            value={kind}
            onChange={(event) => setKind(event.target.value)}
            placeholder={t('nav.kindPlaceholder')}
            pattern="[a-zA-Z][a-zA-Z0-9.\-]*"
          />
          <button type="submit" className="small-button">
            {t('nav.open')}
          </button>
        </div>
      </form>
      {role === 'admin' && (
        <>
          <h2 className="nav-heading">{t('nav.admin')}</h2>
          <ul>
            <li>
              <Link to={routePath({ page: 'audit' })} current={route.page === 'audit'}>
                {t('nav.audit')}
              </Link>
            </li>
            <li>
              <Link to={routePath({ page: 'users' })} current={route.page === 'users'}>
                {t('nav.users')}
              </Link>
            </li>
            <AdminPageLinks route={route} />
          </ul>
        </>
      )}
      <ul className="nav-bottom">
        {role !== 'viewer' && (
          <li>
            <Link to={routePath({ page: 'access' })} current={route.page === 'access'}>
              {t('nav.access')}
            </Link>
          </li>
        )}
        <li>
          <Link to={routePath({ page: 'usage' })} current={route.page === 'usage'}>
            {t('nav.usage')}
          </Link>
        </li>
        <li>
          <Link to={routePath({ page: 'settings' })} current={route.page === 'settings'}>
            {t('nav.settings')}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
