import { useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { TextField } from '../../shared/TextField';
import type { Phase } from './ReleaseProgress';

/** Which chart to install or upgrade to: repo/chart (or a chart name with a repository URL) and a version (empty: the latest). */
export interface ChartRef {
  chart: string;
  repo: string;
  version: string;
}

/** The chart part of an install or upgrade request body. */
export function chartBody(ref: ChartRef): { chart: string; repo?: string; version?: string } {
  return { chart: ref.chart.trim(), repo: ref.repo.trim() || undefined, version: ref.version.trim() || undefined };
}

/** The chart, repository URL and version fields of the install and upgrade forms. */
export function ChartFields({
  value,
  onChange,
  chartPlaceholder,
}: {
  value: ChartRef;
  onChange: (next: ChartRef) => void;
  chartPlaceholder?: string;
}): ReactNode {
  const t = useT();
  return (
    <div className="form-row">
      <TextField label={t('helm.chartRef')} value={value.chart} onValue={(chart) => onChange({ ...value, chart })} required placeholder={chartPlaceholder} />
      <TextField
        label={t('helm.repoUrl')}
        type="url"
        value={value.repo}
        onValue={(repo) => onChange({ ...value, repo })}
        placeholder="https://charts.example.org"
      />
      <TextField label={t('helm.version')} value={value.version} onValue={(version) => onChange({ ...value, version })} placeholder={t('helm.latest')} />
    </div>
  );
}

/** An install or upgrade run: its phase for the progress view and its failure; `after` runs once it is done. */
export function useReleaseRun(run: () => Promise<void>, after: () => unknown): { phase: Phase; error: unknown; submit: (event: FormEvent) => void } {
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setPhase('running');
    setError(undefined);
    try {
      await run();
      setPhase('done');
      await after();
    } catch (failure) {
      setError(failure);
      setPhase('failed');
    }
  };
  return { phase, error, submit: (event) => void submit(event) };
}
