import type { KubeEvent } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, tableOf, type SectionContent } from '../document/report-sections.js';

const recentEvents = 50;

function timeOf(event: KubeEvent): string {
  return event.lastTimestamp ?? event.eventTime ?? event.metadata?.creationTimestamp ?? '';
}

function eventRow(event: KubeEvent): Array<string | number> {
  const involved = event.involvedObject ?? {};
  const namespace = involved.namespace ?? event.metadata?.namespace ?? '';
  return [timeOf(event), namespace, `${involved.kind ?? ''}/${involved.name ?? ''}`, event.reason ?? '', event.message ?? '', event.count ?? 1];
}

/** The most recent Warning events (newest first). */
export async function eventsSection(context: ReportContext): Promise<SectionContent> {
  const events = await context.list<KubeEvent>(refs.events);
  const warnings = events.filter((event) => event.type === 'Warning').sort((left, right) => timeOf(right).localeCompare(timeOf(left)));
  const rows = warnings.slice(0, recentEvents).map(eventRow);
  return {
    summary: `${count(warnings.length, 'Warning event')} kept by the API server; the ${rows.length} most recent are listed.`,
    tables: tableOf('Recent Warning events', ['Last seen', 'Namespace', 'Object', 'Reason', 'Message', 'Count'], rows),
  };
}
