import type { ReactNode } from 'react';
import { useT } from '../../i18n';

/** The values editor: YAML (or JSON, which is YAML) text; the service parses it and names a syntax error. */
export function ValuesEditor({ value, onChange, id }: { value: string; onChange: (value: string) => void; id: string }): ReactNode {
  const t = useT();
  return (
    <label className="field" htmlFor={id}>
      <span>{t('helm.values')}</span>
      <textarea
        id={id}
        className="values-editor"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={'replicaCount: 2\nimage:\n  tag: latest'}
      />
      <span className="muted small">{t('helm.valuesHint')}</span>
    </label>
  );
}
