import type { ReactNode } from 'react';
import { useT } from '../../../i18n';
import { Facts } from './Facts';
import { containerRows, podStatusText, record, text, type ContainerRow } from './summary-model';

const problemStates = /BackOff|Err|OOMKilled|Error|Failed|Invalid/;

const orDash = (value: string): string => value || '-';

function ContainerLine({ row }: { row: ContainerRow }): ReactNode {
  const t = useT();
  const ready = row.ready === undefined ? '-' : row.ready ? t('summary.yes') : t('summary.no');
  return (
    <tr>
      <th scope="row" className="mono">
        {row.name}
        {row.init && <span className="muted small"> ({t('summary.init')})</span>}
      </th>
      <td className={row.state === 'Running' ? 'tone-good' : 'tone-warn'}>{orDash(row.state)}</td>
      <td className={problemStates.test(row.reason) ? 'tone-bad' : undefined}>{orDash(row.reason)}</td>
      <td>{ready}</td>
      <td className={row.restarts > 0 ? 'tone-warn' : undefined}>{row.restarts}</td>
      <td>{orDash(row.lastState)}</td>
      <td className="mono small">{row.image}</td>
      <td className="mono small">{orDash(row.ports)}</td>
    </tr>
  );
}

function ContainerTable({ rows }: { rows: ContainerRow[] }): ReactNode {
  const t = useT();
  return (
    <section aria-label={t('summary.containers')}>
      <h3>{t('summary.containers')}</h3>
      <div className="table-scroll">
        <table className="data-table compact summary-containers">
          <thead>
            <tr>
              <th scope="col">{t('summary.container')}</th>
              <th scope="col">{t('summary.state')}</th>
              <th scope="col">{t('summary.reason')}</th>
              <th scope="col">{t('summary.ready')}</th>
              <th scope="col">{t('summary.restarts')}</th>
              <th scope="col">{t('summary.lastState')}</th>
              <th scope="col">{t('summary.image')}</th>
              <th scope="col">{t('summary.ports')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <ContainerLine key={`${row.init ? 'init' : 'main'}/${row.name}`} row={row} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A pod: what it is doing (a crash-looping container's reason over the phase), where, and each container's state. */
export function PodSummary({ pod }: { pod: Record<string, unknown> }): ReactNode {
  const spec = record(pod.spec);
  const status = record(pod.status);
  const rows = containerRows(pod);
  const restarts = rows.reduce((sum, row) => sum + row.restarts, 0);
  const statusWord = podStatusText(pod);
  return (
    <>
      <Facts
        title="summary.pod"
        facts={[
          ['summary.status', <span className={statusWord === 'Running' || statusWord === 'Succeeded' ? 'tone-good' : 'tone-bad'}>{statusWord}</span>],
          ['summary.restartsTotal', restarts],
          ['summary.node', text(spec.nodeName)],
          ['summary.podIp', text(status.podIP)],
          ['summary.qos', text(status.qosClass)],
          ['summary.serviceAccount', text(spec.serviceAccountName)],
        ]}
      />
      {rows.length > 0 && <ContainerTable rows={rows} />}
    </>
  );
}
