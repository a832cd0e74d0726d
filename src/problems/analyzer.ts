import type { FindingDraft, ObjectRef } from './finding.js';
import type { ObjectReader } from './object-store.js';
import type { Condition, KubeThing } from './shapes.js';

/** An analyzer's thresholds and switches (`problems.analyzers.<name>`). */
export type AnalyzerSettings = Readonly<Record<string, number | boolean | string>>;

/** What an analysis reads: the cluster's watched objects, the time and the analyzer's settings. */
export interface AnalysisContext {
  objects: ObjectReader;
  now: number;
  settings: AnalyzerSettings;
}

/** An analyzer's answer for one object: its findings, and when time alone would change them (a deadline). */
export interface Analysis {
  findings: FindingDraft[];
  owner?: ObjectRef;
  /** Milliseconds since the epoch: analyze the object again then (e.g. "pending for long"). */
  recheckAt?: number;
}

/**
 * One concern of the problems engine (src/problems/analyzers/): a pure function of one object and what it
 * reads, and which objects depend on a changed one (a Service on its namespace's Pods).
 */
export interface Analyzer {
  name: string;
  /** The kind of the objects it analyzes. */
  kind: string;
  /** Default thresholds (`problems.analyzers.<name>` overrides them). */
  defaults?: AnalyzerSettings;
  analyze(object: KubeThing, context: AnalysisContext): Analysis;
  /** Objects of `kind` to analyze again when an object of another kind changes (`changed` is the old or new object). */
  dependents?: Partial<Record<string, (changed: KubeThing, objects: ObjectReader) => ObjectRef[]>>;
}

/** A number setting (or its default). */
export function numberSetting(context: AnalysisContext, name: string, fallback: number): number {
  const value = context.settings[name];
  return typeof value === 'number' ? value : fallback;
}

/** The objects of `kind` in the changed object's namespace (a dependent of every object there). */
export function sameNamespace(kind: string): (changed: KubeThing, objects: ObjectReader) => ObjectRef[] {
  return (changed, objects) =>
    objects.list(kind, changed.metadata?.namespace ?? '').map((object) => ({ kind, namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }));
}

/** The changed object's controller (a ReplicaSet's Deployment), when it is of `kind`. */
export function ownerOfKind(kind: string): (changed: KubeThing) => ObjectRef[] {
  return (changed) => {
    const owner = changed.metadata?.ownerReferences?.find((reference) => reference.kind === kind);
    return owner?.name ? [{ kind, namespace: changed.metadata?.namespace, name: owner.name }] : [];
  };
}

/** Milliseconds since `time` (an RFC 3339 string), or undefined. */
export function ageOf(time: string | undefined, now: number): number | undefined {
  if (!time) return undefined;
  const parsed = Date.parse(time);
  return Number.isNaN(parsed) ? undefined : now - parsed;
}

/** The earliest of deadlines (undefined ones ignored). */
export function earliest(...deadlines: Array<number | undefined>): number | undefined {
  const known = deadlines.filter((deadline): deadline is number => deadline !== undefined);
  return known.length ? Math.min(...known) : undefined;
}

export const none: Analysis = { findings: [] };

/** An event's text as evidence: `Event <reason> (×count): <message>`. */
export function eventEvidence(event: KubeThing): string {
  const count = event.count && event.count > 1 ? ` (x${event.count})` : '';
  return `Event ${event.reason ?? ''}${count}: ${event.message ?? ''}`;
}

/** A possibly absent value as text ('' when absent). */
export function textOf(value: string | number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** The object's name ('' when absent). */
export function nameOf(object: KubeThing | undefined): string {
  return textOf(object?.metadata?.name);
}

/** The object's namespace ('' when cluster-scoped). */
export function namespaceOf(object: KubeThing | undefined): string {
  return textOf(object?.metadata?.namespace);
}

/** `<name> -n <namespace>` for a kubectl hint. */
export function whereOf(object: KubeThing): string {
  return `${nameOf(object)} -n ${namespaceOf(object)}`;
}

/** A condition as evidence: `status.conditions[Type]: Status, reason R, message M`. */
export function conditionEvidence(condition: Condition): string {
  const reason = condition.reason ? `, reason ${condition.reason}` : '';
  const message = condition.message ? `, message ${condition.message}` : '';
  return `status.conditions[${textOf(condition.type)}]: ${textOf(condition.status)}${reason}${message}`;
}

/** A condition's message, else its reason, else `fallback`. */
export function conditionDetail(condition: Condition, fallback = ''): string {
  return condition.message || condition.reason || fallback;
}

/** The controller reference of an object as a ref in its namespace. */
export function controllerRef(object: KubeThing): ObjectRef | undefined {
  const owner = object.metadata?.ownerReferences?.find((reference) => reference.controller) ?? object.metadata?.ownerReferences?.[0];
  if (!owner?.kind || !owner.name) return undefined;
  return { kind: owner.kind, namespace: object.metadata?.namespace, name: owner.name };
}
