import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import { chatCluster, clusterDirectoryOf, singleClusterDirectory, toolTarget, type ClusterDirectory } from './cluster-directory.js';
import { buildSystemPrompt } from './system-prompt.js';

const directory: ClusterDirectory = {
  home: 'home',
  names: () => ['home', 'prod'],
  describe: () => [
    { name: 'home', reachable: true, version: 'v1.33.0' },
    { name: 'prod', reachable: false },
  ],
};

describe('the directory over the cluster set', () => {
  it('reads names and last probes live, never an error text', () => {
    const members = [{ name: 'home', health: { current: { reachable: true, version: 'v1.33.0', error: 'x' } } }];
    const live = clusterDirectoryOf({ homeName: 'home', list: () => members });
    members.push({ name: 'b', health: { current: { reachable: false, version: '', error: 'connection refused to 10.0.0.1' } } });
    expect(live.home).toBe('home');
    expect(live.names()).toEqual(['home', 'b']);
    expect(live.describe()).toEqual([
      { name: 'home', reachable: true, version: 'v1.33.0' },
      { name: 'b', reachable: false },
    ]);
  });
});

describe('the chat cluster', () => {
  it('is the home cluster unless the request names a known one', () => {
    expect(chatCluster(directory, undefined)).toBe('home');
    expect(chatCluster(directory, '')).toBe('home');
    expect(chatCluster(directory, 'prod')).toBe('prod');
  });

  it('refuses an unknown name with NOT_FOUND naming the cluster', () => {
    const error = (() => {
      try {
        chatCluster(directory, 'staging');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(isAppError(error) && { code: error.code, details: error.details }).toEqual({ code: 'NOT_FOUND', details: { cluster: 'staging' } });
  });
});

describe('a tool call target', () => {
  it('is the named cluster, else the chat cluster', () => {
    expect(toolTarget(directory, 'prod', 'home')).toEqual({ ok: true, cluster: 'prod' });
    expect(toolTarget(directory, undefined, 'prod')).toEqual({ ok: true, cluster: 'prod' });
    expect(toolTarget(directory, '', 'home')).toEqual({ ok: true, cluster: 'home' });
  });

  it('refuses an unknown name or a non-string with a sentence that lists the clusters', () => {
    expect(toolTarget(directory, 'staging', 'home')).toEqual({
      ok: false,
      reason: 'Unknown cluster "staging": the clusters are home, prod; the command was not run.',
    });
    expect(toolTarget(singleClusterDirectory(), 42, 'home')).toMatchObject({ ok: false, reason: expect.stringContaining('Unknown cluster "42"') });
  });
});

describe('the system prompt', () => {
  const base = { username: 'ana', role: 'admin' as const, context: {}, tools: ['kubectl'], language: 'en', beginnerMode: false };

  it("lists every cluster with its reachability and marks the chat's one", () => {
    const prompt = buildSystemPrompt({ ...base, clusters: { current: 'prod', items: directory.describe() } });
    expect(prompt).toContain("Clusters (2):\n- home (reachable, v1.33.0)\n- prod (unreachable) <- this chat's cluster");
    expect(prompt).toContain('act on the cluster "prod" unless a call names another with its "cluster" argument');
  });

  it('says nothing of clusters without a directory', () => {
    expect(buildSystemPrompt(base)).not.toContain('Clusters');
  });
});
