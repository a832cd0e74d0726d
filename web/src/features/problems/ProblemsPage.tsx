import { useMemo, useState, type ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { FindingCard } from './FindingCard';
import { FindingActions } from './FindingActions';
import { groupFindings, matchesFilters, noFilters, severities, type Finding, type ProblemFilters } from './problem-model';
import { useProblems } from '../../shared/live-problems';
import './problems.css';

function Filters({
  filters,
  onChange,
  findings,
}: {
  filters: ProblemFilters;
  onChange: (next: ProblemFilters) => void;
  findings: readonly Finding[];
}): ReactNode {
  const t = useT();
  const namespaces = [...new Set(findings.map((finding) => finding.object.namespace ?? ''))].filter(Boolean).sort();
  const kinds = [...new Set(findings.map((finding) => finding.object.kind))].sort();
  if (filters.namespace && !namespaces.includes(filters.namespace)) namespaces.push(filters.namespace);
  return (
    <div className="problem-filters" role="search">
      <SelectField
        label={t('problems.filter.namespace')}
        labelClassName="small muted"
        any={t('problems.filter.any')}
        value={filters.namespace}
        options={namespaces}
        onValue={(namespace) => onChange({ ...filters, namespace })}
      />
      <SelectField
        label={t('problems.filter.severity')}
        labelClassName="small muted"
        any={t('problems.filter.any')}
        value={filters.severity}
        options={severities}
        text={(severity) => t(`problems.severity.${severity}`)}
        onValue={(severity) => onChange({ ...filters, severity })}
      />
      <SelectField
        label={t('problems.filter.kind')}
        labelClassName="small muted"
        any={t('problems.filter.any')}
        value={filters.kind}
        options={kinds}
        onValue={(kind) => onChange({ ...filters, kind })}
      />
      <label className="field problem-text">
        <span className="small muted">{t('problems.filter.text')}</span>
        <input
          type="search"
          value={filters.text}
          placeholder={t('problems.filter.textPlaceholder')}
          onChange={(event) => onChange({ ...filters, text: event.target.value })}
        />
      </label>
    </div>
  );
}

function Counts({ findings }: { findings: readonly Finding[] }): ReactNode {
  const t = useT();
  return (
    <p className="problem-counts small" data-testid="problem-counts">
      {severities.map((severity) => (
        <span key={severity} className={`severity severity-${severity}`}>
          {t(`problems.count.${severity}`, { count: findings.filter((finding) => finding.severity === severity).length })}
        </span>
      ))}
    </p>
  );
}

function Groups({ findings }: { findings: readonly Finding[] }): ReactNode {
  const t = useT();
  return groupFindings(findings).map((group) => (
    <section key={group.severity} className="problem-group" aria-labelledby={`problems-${group.severity}`}>
      <h2 id={`problems-${group.severity}`} className={`severity-heading severity-${group.severity}`}>
        {t(`problems.severity.${group.severity}`)} <span className="muted small">{group.namespaces.reduce((sum, entry) => sum + entry.items.length, 0)}</span>
      </h2>
      {group.namespaces.map(({ namespace, items }) => (
        <section
          key={namespace}
          className="problem-namespace"
          aria-label={`${t(`problems.severity.${group.severity}`)} · ${namespace || t('problems.clusterScoped')}`}
        >
          <h3 className="small">{namespace ? `ns/${namespace}` : t('problems.clusterScoped')}</h3>
          {items.map((finding) => (
            <FindingCard key={finding.id} finding={finding} actions={<FindingActions finding={finding} />} />
          ))}
        </section>
      ))}
    </section>
  ));
}

/**
 * Problems: every finding of the cluster the caller may see, live (`GET /api/problems/watch`), grouped by severity
 * then namespace, filtered by namespace, severity, kind and text; the header's namespace is the first filter.
 */
export function ProblemsPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const live = useProblems();
  const [filters, setFilters] = useState<ProblemFilters>({ ...noFilters, namespace });
  // The header's namespace, changed while the page is open, becomes the namespace filter (adjusted while rendering).
  const [headerNamespace, setHeaderNamespace] = useState(namespace);
  if (headerNamespace !== namespace) {
    setHeaderNamespace(namespace);
    setFilters({ ...filters, namespace });
  }
  const all = useMemo(() => live.items ?? [], [live.items]);
  const shown = useMemo(() => all.filter((finding) => matchesFilters(finding, filters)), [all, filters]);
  return (
    <section className="page problems-page" aria-labelledby="problems-title">
      <div className="toolbar">
        <h1 id="problems-title">{t('problems.title')}</h1>
        <Counts findings={shown} />
      </div>
      <p className="muted small pad">{t('problems.intro')}</p>
      <Filters filters={filters} onChange={setFilters} findings={all} />
      <ErrorNotice error={live.error} compact={!!live.items} />
      {live.loading && <p className="muted pad">{t('common.loading')}</p>}
      {live.items && shown.length === 0 && <p className="muted pad">{all.length ? t('problems.noneMatch') : t('problems.none')}</p>}
      <div className="problem-groups">
        <Groups findings={shown} />
      </div>
    </section>
  );
}
