import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root. */
export const rootDirectory = fileURLToPath(new URL('../../', import.meta.url));

/** A tool binary built by `make tools` / `make cluster-build`, or from PATH. */
export function toolPath(name: 'kubectl' | 'helm' | 'testcluster'): string {
  const local = join(rootDirectory, '.tools', 'bin', name);
  return existsSync(local) ? local : name;
}
