import type { Config } from '../config/schema.js';
import type { OutboundUrlPolicy } from './address-policy.js';

// `apiServers`: every API server Pilothouse serves, read at each check (clusters come and go: src/clusters/scope-readers.ts).

/** The policy of a config section with `allow_http` and `allow_private_urls` switches, named by their keys in refusals. */
function switchedPolicy(
  section: 'helm' | 'investigations',
  switches: { allow_http: boolean; allow_private_urls: boolean },
  apiServers: () => readonly string[],
): OutboundUrlPolicy {
  return {
    allowHttp: switches.allow_http,
    allowPrivate: switches.allow_private_urls,
    forbiddenEndpoints: apiServers,
    keys: { http: `${section}.allow_http`, private: `${section}.allow_private_urls` },
  };
}

/** Helm repository and chart URLs set through the API (config `helm.allow_http`, `helm.allow_private_urls`). */
export function helmUrlPolicy(config: Config, apiServers: () => readonly string[]): OutboundUrlPolicy {
  return switchedPolicy('helm', config.helm, apiServers);
}

/**
 * LLM `base_url`/`azure_endpoint` set through the API: https and public addresses only, unless
 * `llm.allow_private_base_url` (a local runner such as Ollama speaks plain http on loopback).
 */
export function llmUrlPolicy(config: Config, apiServers: () => readonly string[]): OutboundUrlPolicy {
  const relaxed = config.llm.allow_private_base_url;
  return {
    allowHttp: relaxed,
    allowPrivate: relaxed,
    forbiddenEndpoints: apiServers,
    keys: { http: 'llm.allow_private_base_url', private: 'llm.allow_private_base_url' },
  };
}

/** Investigation notification URLs (from Secrets): https and public addresses, unless `investigations.allow_http` / `investigations.allow_private_urls`. */
export function notificationUrlPolicy(config: Config, apiServers: () => readonly string[]): OutboundUrlPolicy {
  return switchedPolicy('investigations', config.investigations, apiServers);
}
