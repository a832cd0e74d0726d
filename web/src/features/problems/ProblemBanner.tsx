import type { ReactNode } from 'react';
import type { components } from '@pilothouse/wire/types';
import { useT } from '../../i18n';
import { Link } from '../../shared/router';
import type { ResourceTarget } from '../../shared/resource-target';
import { useApiQuery } from '../../shared/use-api-query';
import { FindingActions } from './FindingActions';
import { FindingCard } from './FindingCard';
import { findingsAbout, resourceOfKind, type Finding } from './problem-model';
import { useProblems } from '../../shared/live-problems';
import './problems.css';

type Investigation = components['schemas']['Investigation'];

/** The investigations about the object of the page (its subject), newest first as the list answers. */
function useInvestigationsAbout(target: ResourceTarget, enabled: boolean): Investigation[] {
  const list = useApiQuery('/api/investigations', { enabled, refetchInterval: 15_000 });
  return (list.data?.items ?? []).filter((item) => {
    const subject = item.spec.subject;
    return (
      !!subject &&
      subject.name === target.name &&
      (subject.namespace ?? undefined) === target.namespace &&
      resourceOfKind(subject.kind) === resourceOfKind(target.resource)
    );
  });
}

function InvestigationLinks({ items }: { items: Investigation[] }): ReactNode {
  const t = useT();
  if (items.length === 0) return null;
  return (
    <p className="small problem-investigations">
      {t('problems.investigations')}{' '}
      {items.map((item) => (
        <Link key={item.metadata.name} to={`/investigations?name=${encodeURIComponent(item.metadata.name)}`}>
          {item.metadata.name} ({item.status?.phase ?? 'Pending'})
        </Link>
      ))}
    </p>
  );
}

/** The findings about one object, on its page: each with its evidence, hint, Ask the pilot and Investigate. */
export function ProblemBanner({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const live = useProblems();
  const findings: Finding[] = findingsAbout(live.items ?? [], target);
  const investigations = useInvestigationsAbout(target, findings.length > 0);
  if (findings.length === 0) return null;
  const worst = findings[0]?.severity ?? 'info';
  return (
    <section
      className={`problem-banner problem-banner-${worst}`}
      role="region"
      aria-label={t('problems.bannerLabel', { count: findings.length })}
      data-testid="problem-banner"
    >
      <h2 className="small">{t('problems.banner', { count: findings.length })}</h2>
      {findings.map((finding) => (
        <FindingCard key={finding.id} finding={finding} showObject={finding.object.name !== target.name} actions={<FindingActions finding={finding} />} />
      ))}
      <InvestigationLinks items={investigations} />
    </section>
  );
}
