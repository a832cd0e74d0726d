import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { forbidden } from '../errors.js';
import { viewIncludes } from './enforce-matcher.js';
import type { HistoryAnswer, HistorySeriesAnswer } from './history-answer.js';
import type { HistoryRequest } from './history-request.js';
import type { MetricsView } from './metrics-view.js';

/** One sample of metrics-server: each pod's and node's CPU (cores) and memory (bytes). */
export interface UsageSample {
  pods: { namespace: string; name: string; cpu: number; memory: number }[];
  nodes: { name: string; cpu: number; memory: number }[];
}

export interface UsageMemoryOptions {
  /** Reads metrics-server now (the service's own identity). */
  read(): Promise<UsageSample>;
  windowMs: number;
  intervalMs: number;
  clock: Clock;
  logger: Logger;
}

/**
 * A short usage history kept by this replica when its cluster has no Prometheus (issue 36): metrics-server sampled
 * every `intervalMs`, the last `windowMs` kept. One ring of sample times, and per pod or node one Float32Array of
 * CPU and memory per slot (10,000 pods for an hour at 30 s: about 10 MB). Started by the first history request
 * that finds no Prometheus; stopped with its cluster.
 */
export class UsageMemory {
  private readonly slots: number;
  private readonly times: Float64Array;
  private readonly values = new Map<string, Float32Array>();
  private next = 0;
  private count = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: UsageMemoryOptions) {
    this.slots = Math.max(2, Math.ceil(options.windowMs / options.intervalMs) + 1);
    this.times = new Float64Array(this.slots);
  }

  /** Starts sampling (once; the first sample now). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sample(), this.options.intervalMs);
    this.timer.unref();
    void this.sample();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  get started(): boolean {
    return this.timer !== undefined;
  }

  /** Stores one sample taken at `at` (ms): a new slot, series not in it are empty there; series seen in no kept slot are dropped. */
  record(at: number, sample: UsageSample): void {
    const slot = this.next;
    this.times[slot] = at / 1000;
    for (const values of this.values.values()) values.fill(Number.NaN, slot * 2, slot * 2 + 2);
    for (const pod of sample.pods) this.put(`pod\u0000${pod.namespace}\u0000${pod.name}`, slot, pod.cpu, pod.memory);
    for (const node of sample.nodes) this.put(`node\u0000${node.name}`, slot, node.cpu, node.memory);
    this.next = (slot + 1) % this.slots;
    this.count = Math.min(this.count + 1, this.slots);
    if (slot === 0) this.dropEmpty();
  }

  /** Series kept (pods and nodes). */
  get size(): number {
    return this.values.size;
  }

  /** The object's CPU and memory over the request's window, as the caller may see it (403 outside their view). */
  history(request: HistoryRequest, view: MetricsView): HistoryAnswer {
    if (request.kind === 'node' ? !viewIncludes(view, '') : !viewIncludes(view, request.namespace))
      throw forbidden(`you may not read the usage of this ${request.kind} (metrics follow where you may list pods; nodes need a list of nodes)`, {
        reason: 'namespace_not_visible',
        namespace: request.namespace || undefined,
      });
    const keys = this.keysOf(request);
    const order = this.slotOrder().filter((slot) => (this.times[slot] ?? 0) >= request.start);
    const series = (['cpu', 'memory'] as const).map((name, offset): HistorySeriesAnswer => {
      const points: [number, number][] = [];
      for (const slot of order) {
        const value = sumAt(
          keys.map((key) => this.values.get(key)).filter((values) => values !== undefined),
          slot * 2 + offset,
        );
        if (value !== undefined) points.push([this.times[slot] ?? 0, value]);
      }
      return { name, unit: name === 'cpu' ? 'cores' : 'bytes', points };
    });
    const { kind, namespace, name, start, end } = request;
    const kept = request.kind === 'pvc' ? [] : series;
    return { kind, ...(namespace ? { namespace } : {}), name, source: 'memory', start, end, step: this.options.intervalMs / 1000, series: kept };
  }

  private async sample(): Promise<void> {
    try {
      this.record(this.options.clock(), await this.options.read());
    } catch (error) {
      this.options.logger.debug({ err: String(error) }, 'cannot sample metrics-server for the in-memory history');
    }
  }

  private put(key: string, slot: number, cpu: number, memory: number): void {
    let values = this.values.get(key);
    if (!values) this.values.set(key, (values = new Float32Array(this.slots * 2).fill(Number.NaN)));
    values[slot * 2] = cpu;
    values[slot * 2 + 1] = memory;
  }

  /** Kept slots, oldest first. */
  private slotOrder(): number[] {
    const first = (this.next - this.count + this.slots) % this.slots;
    return Array.from({ length: this.count }, (_, index) => (first + index) % this.slots);
  }

  private keysOf(request: HistoryRequest): string[] {
    if (request.kind === 'node') return [`node\u0000${request.name}`];
    if (request.kind === 'pod') return [`pod\u0000${request.namespace}\u0000${request.name}`];
    const prefix = `pod\u0000${request.namespace}\u0000${request.name}-`;
    return request.kind === 'workload' ? [...this.values.keys()].filter((key) => key.startsWith(prefix)) : [];
  }

  private dropEmpty(): void {
    for (const [key, values] of this.values) if (values.every((value) => Number.isNaN(value))) this.values.delete(key);
  }
}

/** The sum of the series at one index, undefined when none has a value there. */
function sumAt(series: Float32Array[], index: number): number | undefined {
  let total: number | undefined;
  for (const values of series) {
    const value = values[index] ?? Number.NaN;
    if (!Number.isNaN(value)) total = (total ?? 0) + value;
  }
  return total;
}
