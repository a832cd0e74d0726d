import { useState, type ReactNode } from 'react';
import { SelectField } from '../../shared/SelectField';
import { TextField } from '../../shared/TextField';
import { useSubmit } from '../../shared/use-submit';
import { useApi } from '../../shared/api-context';
import { useCluster } from '../../shared/cluster-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { reportFormats, reportTypes, type Report } from './report-types';

/** Request a report: type, format, namespace (empty = the whole cluster). */
export function ReportForm({ namespace, onRequested }: { namespace: string; onRequested: (report: Report) => void }): ReactNode {
  const t = useT();
  const client = useApi();
  const cluster = useCluster();
  const [type, setType] = useState<string>(reportTypes[0]);
  const [format, setFormat] = useState<string>(reportFormats[0]);
  const [target, setTarget] = useState(namespace);
  const { busy, error, submit } = useSubmit(async () => {
    const body = { type: type as Report['type'], format: format as Report['format'], ...(target.trim() ? { namespace: target.trim() } : {}) };
    const started = await client.call('POST', '/api/reports', { body });
    onRequested({
      id: started.id,
      status: started.status,
      cluster,
      type: type as Report['type'],
      format: format as Report['format'],
      namespace: body.namespace ?? '',
      progress: 0,
      message: null,
      requester: null,
      createdAt: new Date().toISOString(),
      completedAt: null,
      size: null,
      fileName: null,
      conditions: [],
    });
  });
  return (
    <form className="card page-section" onSubmit={submit} aria-labelledby="report-form-title">
      <h2 id="report-form-title">{t('reports.request')}</h2>
      <div className="form-row">
        <SelectField label={t('reports.type')} value={type} options={reportTypes} text={(value) => t(`reports.type.${value}`)} onValue={setType} />
        <SelectField label={t('reports.format')} value={format} options={reportFormats} text={(value) => value.toUpperCase()} onValue={setFormat} />
        <TextField label={t('reports.namespace')} value={target} onValue={setTarget} placeholder={t('reports.allNamespaces')} />
        <button type="submit" className="primary" disabled={busy}>
          {t('reports.generate')}
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
