/** The download name of a report: `<type>-<namespace|cluster>-<yyyymmdd-hhmm>.<extension>`. */
export function reportFileName(spec: { type: string; namespace?: string }, createdAt: string | undefined, extension: string): string {
  const when = new Date(createdAt ?? Date.now());
  const stamp = Number.isNaN(when.getTime()) ? 'undated' : when.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  const scope = (spec.namespace || 'cluster').replace(/[^a-z0-9-]/gi, '_');
  return `${spec.type}-${scope}-${stamp}.${extension}`;
}
