import { registerHooks } from 'node:module';

/**
 * `@kubernetes/client-node`'s `KubeConfig` (dist/config.js) imports the generated API client
 * (`./gen/index.js`: every model and API class, ~17 MB of source) only for `makeApiClient`, which
 * Pilothouse never calls: it talks to the API server through its own REST client. Loading the whole
 * package cost ~45 MiB of RSS at start. This hook hands `config.js` a two-name stand-in for the
 * generated client instead; `makeApiClient` would throw. Registered by `main.ts` before any mode is
 * imported; tests and scripts that import the package directly load it whole, unchanged.
 */
const generatedClient = './gen/index.js';
const kubeConfigModule = '/@kubernetes/client-node/dist/config.js';
const standIn = `data:text/javascript,${encodeURIComponent(
  [
    'export class ServerConfiguration {}',
    "export function createConfiguration() { throw new Error('the generated Kubernetes API client is not loaded in Pilothouse'); }",
  ].join('\n'),
)}`;

export function slimKubeConfigLoading(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === generatedClient && context.parentURL?.endsWith(kubeConfigModule)) return { url: standIn, shortCircuit: true };
      return nextResolve(specifier, context);
    },
  });
}
