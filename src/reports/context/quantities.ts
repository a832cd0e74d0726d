import { formatCpu, formatMemory, parseQuantity } from '../../kube/metrics/metrics-quantity.js';
import type { Quantities } from './kube-shapes.js';

/** A quantity as a number (0 when absent or unreadable). */
export function quantity(values: Quantities | undefined, name: string): number {
  const text = values?.[name];
  if (!text) return 0;
  const parsed = parseQuantity(text);
  return Number.isFinite(parsed) ? parsed : 0;
}

/** CPU cores for people: `250m`, `4` cores stay `4000m` for comparison in one column. */
export const cpuText = formatCpu;
export const memoryText = formatMemory;

/** Percent of `total`, whole, or '' when there is no total. */
export function percentOf(used: number, total: number): number | '' {
  return total > 0 ? Math.round((used / total) * 100) : '';
}
