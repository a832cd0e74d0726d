import { useRef, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { Spinner } from '../../shared/Spinner';
import { formatClock } from '../../shared/time';
import type { LiveList } from '../../shared/use-live-list';
import { useSlashFocus } from './use-slash-focus';

interface ListToolbarProps {
  title: string;
  filter: string;
  onFilter: (filter: string) => void;
  selector: string;
  onSelector: (selector: string) => void;
  list: LiveList;
  shown: number;
  /** Extra actions at the end (Create from YAML). */
  actions?: ReactNode;
}

/** Title, text filter (`/` focuses it), label selector (applied by the server), "shown of total", and the live status. */
export function ListToolbar({ title, filter, onFilter, selector, onSelector, list, shown, actions }: ListToolbarProps): ReactNode {
  const t = useT();
  const filterField = useRef<HTMLInputElement>(null);
  useSlashFocus(filterField);
  return (
    <div className="toolbar">
      <h1 id="list-title">{title}</h1>
      <label className="filter">
        <span className="visually-hidden">{t('table.filter')}</span>
        <input
          ref={filterField}
          type="search"
          value={filter}
          placeholder={t('table.filterPlaceholder')}
          aria-keyshortcuts="/"
          onChange={(event) => onFilter(event.target.value)}
        />
      </label>
      <label className="filter">
        <span className="visually-hidden">{t('objects.labelSelector')}</span>
        <input
          type="search"
          defaultValue={selector}
          placeholder={t('objects.labelSelectorPlaceholder')}
          onKeyDown={(event) => event.key === 'Enter' && onSelector(event.currentTarget.value.trim())}
          onBlur={(event) => onSelector(event.currentTarget.value.trim())}
        />
      </label>
      <span className="muted" aria-live="polite">
        {list.data ? t('table.count', { shown, total: list.data.items.length }) : ''}
      </span>
      <span className="toolbar-status">
        {list.refreshing && <Spinner label={t('table.refreshing')} />}
        {list.updatedAt && <span className="muted small">{t('table.updated', { time: formatClock(list.updatedAt) })}</span>}
        {actions}
      </span>
    </div>
  );
}
