import { describe, expect, it } from 'vitest';
import { hiddenNote, hideSection, withoutPodRows } from './describe-visibility.js';

const node = `Name:               kwok-node-0
Roles:              agent
Non-terminated Pods:          (3 in total)
  Namespace                   Name       CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----       ------------  ----------  ---------------  -------------  ---
  open                        web-0      100m (1%)     0 (0%)      0 (0%)           0 (0%)         5m
  secret-team                 db-0       2 (50%)       0 (0%)      0 (0%)           0 (0%)         5m
  open                        web-1      100m (1%)     0 (0%)      0 (0%)           0 (0%)         5m
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests     Limits
  --------           --------     ------
  cpu                2200m (55%)  0 (0%)
Events:              <none>`;

const namespace = `Name:         team-a
Labels:       kubernetes.io/metadata.name=team-a
Annotations:  <none>
Status:       Active

Resource Quotas
  Name:     compute
  Resource  Used  Hard
  --------  ---   ---
  pods      0     10

Resource Limits
 Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
 ----       --------  ---  ---  ---------------  -------------  -----------------------
 Container  cpu       -    -    100m             200m           -`;

describe('describe text sections', () => {
  it('leaves out the pod rows of hidden namespaces and counts the rest', () => {
    const { text, dropped } = withoutPodRows(node, (ns) => ns !== 'secret-team');
    expect(dropped).toBe(1);
    expect(text).not.toContain('secret-team');
    expect(text).not.toContain('db-0');
    expect(text).toContain('(2 in total)');
    expect(text).toContain('web-1');
    expect(text).toContain('Allocated resources:');
  });

  it('keeps the text when every row may be seen', () => {
    expect(withoutPodRows(node, () => true)).toEqual({ text: node, dropped: 0 });
  });

  it('replaces a section by one line, keeping what follows', () => {
    const text = hideSection(node, /^Allocated resources:/, 'Allocated resources');
    expect(text).toContain(`Allocated resources:  ${hiddenNote}`);
    expect(text).not.toContain('2200m');
    expect(text).toContain('Events:');
  });

  it('hides a namespace quota and limit range section up to the blank line', () => {
    let text = hideSection(namespace, /^(Resource Quotas\s*$|No resource quota\.)/, 'Resource Quotas');
    expect(text).not.toContain('compute');
    expect(text).toContain('Container  cpu');
    text = hideSection(text, /^(Resource Limits\s*$|No LimitRange resource\.)/, 'Resource Limits');
    expect(text).not.toContain('200m');
    expect(text).toContain(`Resource Quotas:  ${hiddenNote}`);
    expect(text).toContain('Status:       Active');
  });
});
