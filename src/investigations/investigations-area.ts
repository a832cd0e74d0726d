import type { ActionApproval } from './action-approval.js';
import type { AlertReceiver } from './alertmanager-webhook.js';
import type { InvestigationStore } from './investigation-store.js';

/** The investigations area as the HTTP routes see it (src/app/compose-investigations.ts builds it). */
export interface InvestigationsArea {
  store: InvestigationStore;
  receiver: AlertReceiver;
  approval: ActionApproval;
  /** The bearer token Alertmanager must send (config or Secret); undefined: none configured, every delivery is refused. */
  webhookToken(): Promise<string | undefined>;
  /** Whether a cluster of that name exists. */
  hasCluster(name: string): boolean;
  homeCluster: string;
}
