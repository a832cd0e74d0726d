import { describe, expect, it } from 'vitest';
import { clusterOfSearch, keepCluster, onCluster } from './cluster-url';

describe('the cluster in the URL', () => {
  it('reads ?cluster= (absent: the home cluster)', () => {
    expect(clusterOfSearch('?cluster=staging&filter=x')).toBe('staging');
    expect(clusterOfSearch('')).toBe('');
    expect(clusterOfSearch('?filter=x')).toBe('');
  });

  it('keeps the current cluster on in-app links, next to their own parameters', () => {
    expect(keepCluster('/resources/pods', 'staging')).toBe('/resources/pods?cluster=staging');
    expect(keepCluster('/resources/pods?filter=Pending&labelSelector=app%3Dweb', 'staging')).toBe(
      '/resources/pods?filter=Pending&labelSelector=app%3Dweb&cluster=staging',
    );
    expect(keepCluster('/resources/pods/web/a%20b', 'prod')).toBe('/resources/pods/web/a%20b?cluster=prod');
    // A link that names its cluster (the all-clusters overview) keeps it; the home cluster adds nothing.
    expect(keepCluster('/overview?cluster=prod', 'staging')).toBe('/overview?cluster=prod');
    expect(keepCluster('/overview', '')).toBe('/overview');
    // Not an app path: left alone.
    expect(keepCluster('https://idp.example/logout', 'staging')).toBe('https://idp.example/logout');
  });

  it('moves the current page to another cluster, its other parameters kept', () => {
    expect(onCluster('/resources/pods', '?filter=Pending&cluster=staging', 'prod')).toBe('/resources/pods?filter=Pending&cluster=prod');
    expect(onCluster('/overview', '', 'prod')).toBe('/overview?cluster=prod');
    expect(onCluster('/overview', '?cluster=prod', '')).toBe('/overview');
  });
});
