import { readFileSync } from 'node:fs';

/** The package version (reported in MCP clientInfo and /api/health responses' headers). */
export const version: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
