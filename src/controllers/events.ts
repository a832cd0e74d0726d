import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { apiVersion } from '../crds/common.js';
import type { RestClient } from '../kube/rest-client.js';

/** The object an Event is about (its `regarding`). */
export interface EventSubject {
  /** The object's apiVersion; absent: Pilothouse's own (pilothouse.dev/v1alpha1); '' when not known (an investigation's subject). */
  apiVersion?: string;
  kind: string;
  metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string };
}

/** One transition to announce: a CamelCase reason, a sentence, and Warning for failures. */
export interface EventNote {
  type: 'Normal' | 'Warning';
  reason: string;
  /** What the controller did (events.k8s.io `action`), e.g. `Reconcile`. */
  action: string;
  note: string;
}

/** Records Kubernetes Events; a failure to record is logged, never fails a reconcile. */
export interface EventRecorder {
  record(subject: EventSubject, event: EventNote): Promise<void>;
}

/** The `reportingController` of every Event Pilothouse writes. */
export const reportingController = 'pilothouse.dev/controller';

/** MicroTime as the API server wants it (RFC 3339 with microseconds). */
function microTime(milliseconds: number): string {
  return new Date(milliseconds).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Writes events.k8s.io/v1 Events under the service's own identity, in the object's namespace with
 * the object as `regarding` (so `kubectl describe` and `kubectl get events --field-selector
 * involvedObject.name=NAME` show them).
 */
export class KubeEventRecorder implements EventRecorder {
  private readonly instance = hostname();
  private sequence = 0;

  constructor(
    private readonly rest: RestClient,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  async record(subject: EventSubject, event: EventNote): Promise<void> {
    const namespace = subject.metadata.namespace ?? 'default';
    const { name, uid, resourceVersion } = subject.metadata;
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      // client-go's naming: the object's name and the time in nanoseconds, in hexadecimal.
      metadata: { name: `${name}.${(BigInt(this.clock()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`, namespace },
      eventTime: microTime(this.clock()),
      reportingController,
      reportingInstance: this.instance.slice(0, 128),
      action: event.action,
      reason: event.reason,
      note: event.note.slice(0, 1024),
      type: event.type,
      regarding: {
        ...(subject.apiVersion === '' ? {} : { apiVersion: subject.apiVersion ?? apiVersion }),
        kind: subject.kind,
        name,
        namespace,
        uid,
        resourceVersion,
      },
    };
    try {
      await this.rest.json('POST', `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events`, { body, target: `events/${name}` });
    } catch (error) {
      this.logger.info({ kind: subject.kind, name, reason: event.reason, err: String(error) }, 'event not recorded');
    }
  }
}

/** Records nothing (tests and tools that build reconcilers without a cluster identity). */
export const noEvents: EventRecorder = { record: async () => undefined };
