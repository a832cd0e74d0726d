import { describe, expect, it } from 'vitest';
import { kubectlTargets } from './kubectl-targets.js';

describe('kubectlTargets (the objects a kubectl line names, for the approval card)', () => {
  it('reads type/name and type name forms with the namespace kubectl would use', () => {
    expect(kubectlTargets('kubectl scale deployment/web -n shop --replicas=3')).toEqual([{ resource: 'deployment', name: 'web', namespace: 'shop' }]);
    expect(kubectlTargets('kubectl delete pod a b --namespace=shop')).toEqual([
      { resource: 'pod', name: 'a', namespace: 'shop' },
      { resource: 'pod', name: 'b', namespace: 'shop' },
    ]);
    expect(kubectlTargets('kubectl label deploy web tier=front')).toEqual([{ resource: 'deploy', name: 'web' }]);
    expect(kubectlTargets('kubectl set image deployment/web app=nginx:1.27 -n shop')).toEqual([{ resource: 'deployment', name: 'web', namespace: 'shop' }]);
  });

  it('names nothing for files, selectors, type lists, shell syntax or lines kubectl would refuse', () => {
    expect(kubectlTargets('kubectl apply -f web.yaml')).toEqual([]);
    expect(kubectlTargets('kubectl delete pods -l app=web')).toEqual([]);
    expect(kubectlTargets('kubectl delete pod,svc web')).toEqual([]);
    expect(kubectlTargets('kubectl scale deployment/web --replicas=3 | tee out')).toEqual([]);
    expect(kubectlTargets('kubectl scale deployment/web --no-such-flag')).toEqual([]);
  });
});
