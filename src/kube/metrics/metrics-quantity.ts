const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** Parses a Kubernetes quantity (`250m`, `1.5`, `128Mi`, `1e3`, `12345n`) into a plain number. */
export function parseQuantity(text: string): number {
  const match = /^([+-]?[0-9.]+(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  const suffix = match[2] ?? '';
  const factor = binary[suffix] ?? decimal[suffix];
  return factor === undefined ? Number.NaN : value * factor;
}

/** CPU cores → `<n>m` (nearest whole millicore; metrics-server reports nanocores). */
export function formatCpu(cores: number): string {
  return `${Math.round(cores * 1e3)}m`;
}

/** Bytes → `<n>Mi` (whole mebibytes, like kubectl top). */
export function formatMemory(bytes: number): string {
  return `${Math.floor(bytes / 2 ** 20)}Mi`;
}
