import { ageOf, nameOf, numberSetting, textOf, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { KubeThing } from '../shapes.js';

interface OwnShape extends KubeThing {
  status?: { phase?: string; message?: string };
}

function analyzeAccessRequest(request: OwnShape, context: AnalysisContext): Analysis {
  const phase = request.status?.phase ?? 'Pending';
  if (phase !== 'Pending') return { findings: [] };
  const limit = numberSetting(context, 'pendingMinutes', 60) * 60_000;
  const created = textOf(request.metadata?.creationTimestamp);
  const age = ageOf(created, context.now) ?? 0;
  if (age < limit) return { findings: [], recheckAt: context.now + (limit - age) };
  const message = `The access request has waited for a decision for ${Math.round(age / 60_000)} minutes`;
  const evidence = [`status.phase: ${phase}`, `metadata.creationTimestamp: ${created}`];
  return { findings: [{ severity: 'info', reason: 'PendingForLong', message, evidence, hint: `kubectl get accessrequest ${whereOf(request)} -o yaml` }] };
}

function failedPhase(kind: string, failedPhaseName: string, reason: string): (object: KubeThing) => Analysis {
  return (object) => {
    const status = (object as OwnShape).status;
    if (status?.phase !== failedPhaseName) return { findings: [] };
    const detail = textOf(status.message);
    const evidence = [`status.phase: ${status.phase}`, ...(detail ? [`status.message: ${detail}`] : [])];
    const message = `${kind} ${nameOf(object)}: ${detail || status.phase}`;
    return { findings: [{ severity: 'warning', reason, message, evidence, hint: `kubectl describe ${kind.toLowerCase()} ${whereOf(object)}` }] };
  };
}

/** Pilothouse's AccessRequests pending for long (`pendingMinutes`, default 60). */
export const accessRequestAnalyzer: Analyzer = {
  name: 'accessrequest',
  kind: 'AccessRequest',
  defaults: { pendingMinutes: 60 },
  analyze: (object, context) => analyzeAccessRequest(object as OwnShape, context),
};

/** Pilothouse's Reports that failed. */
export const reportAnalyzer: Analyzer = { name: 'report', kind: 'Report', analyze: failedPhase('Report', 'failed', 'ReportFailed') };

/** Pilothouse's MCPServers that failed to connect. */
export const mcpServerAnalyzer: Analyzer = { name: 'mcpserver', kind: 'MCPServer', analyze: failedPhase('MCPServer', 'failed', 'NotConnected') };
