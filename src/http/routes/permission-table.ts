import { permissionMatrix } from '../permissions.js';
import type { RouteSpec } from '../types.js';

const mark: Record<'yes' | 'no' | 'approval', string> = { yes: 'yes', no: '—', approval: 'approval' };

/** The permission table of docs/reference/permissions.md, generated from the route specs (one row per route). */
export function permissionTable(routes: readonly RouteSpec[]): string {
  const header = ['| Method | Path | Permission | viewer | user | admin |', '|---|---|---|---|---|---|'];
  const rows = [...routes]
    .sort((left, right) => left.path.localeCompare(right.path) || left.method.localeCompare(right.method))
    .map((spec) => {
      const matrix = permissionMatrix[spec.permission];
      const kind = spec.resourceKind ? ` (resource roles: ${spec.resourceKind === ':resource' ? '`{resource}`' : spec.resourceKind})` : '';
      return `| ${spec.method} | \`${spec.path}\` | \`${spec.permission}\`${kind} | ${mark[matrix.viewer]} | ${mark[matrix.user]} | ${mark[matrix.admin]} |`;
    });
  return [...header, ...rows].join('\n');
}
