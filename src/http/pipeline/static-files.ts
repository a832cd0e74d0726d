import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Next } from 'koa';
import type { AppContext } from '../types.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

const fallbackPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pilothouse</title></head>
<body><h1>Pilothouse</h1><p>The API is running. The web UI bundle (web/dist) is not built in this installation;
run <code>make build</code> to build it.</p><p>API description: <a href="/api/openapi.json">/api/openapi.json</a></p></body></html>`;

/** The file under `root` a URL path names, or undefined (missing, a folder, or outside root). */
function resolveFile(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const candidate = normalize(join(root, decoded));
  const inside = candidate.startsWith(root.endsWith(sep) ? root : root + sep);
  return inside && existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
}

function isApiRequest(context: AppContext): boolean {
  return (context.method !== 'GET' && context.method !== 'HEAD') || context.path.startsWith('/api/') || context.path === '/metrics';
}

/**
 * Serves the built web UI (`-web`): files from `root`, and index.html for client-side routes.
 * Never serves anything under /api/ or /metrics, and never leaves `root` (path traversal).
 */
export function staticFiles(root: string) {
  const index = join(root, 'index.html');
  return async (context: AppContext, next: Next): Promise<void> => {
    if (isApiRequest(context)) return next();
    const file = resolveFile(root, context.path) ?? index;
    if (!existsSync(file)) {
      context.type = 'text/html; charset=utf-8';
      context.body = fallbackPage;
      return;
    }
    context.type = contentTypes[extname(file)] ?? 'application/octet-stream';
    context.set('Cache-Control', file === index ? 'no-cache' : 'public, max-age=31536000, immutable');
    context.body = createReadStream(file);
  };
}
