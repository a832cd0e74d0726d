import type { ReactNode } from 'react';
import { useT, type MessageKey } from '../../../i18n';

/** One fact of a summary: its label's key and its value (an empty value is left out). */
export type Fact = [MessageKey, ReactNode];

/** A kind's facts as a definition list, under its heading. */
export function Facts({ title, facts }: { title: MessageKey; facts: Fact[] }): ReactNode {
  const t = useT();
  const shown = facts.filter(([, value]) => value !== '' && value !== undefined && value !== null);
  if (shown.length === 0) return null;
  return (
    <section aria-label={t(title)} className="kind-summary">
      <h3>{t(title)}</h3>
      <dl className="summary-list">
        {shown.map(([label, value]) => (
          <div key={label} className="summary-pair">
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Values one per line (images, ports). */
export function Lines({ values }: { values: string[] }): ReactNode {
  if (values.length === 0) return '';
  return (
    <ul className="pairs">
      {values.map((value, index) => (
        <li key={`${index}-${value}`} className="mono small">
          {value}
        </li>
      ))}
    </ul>
  );
}
