import type { Finding, FindingObject } from '../document/document.js';
import { containersOf, type Pod } from '../context/kube-shapes.js';
import { count } from '../document/report-sections.js';
import { describeObject, objectKey, workloadOf } from '../context/workload-owner.js';
import { isLatest, isTrusted, parseImage, type ImageReference } from './image-reference.js';

/** One image used by one workload. */
export interface ImageUse {
  image: string;
  reference: ImageReference;
  workload: FindingObject;
  pods: number;
}

/** Images per workload (each pair once, with the number of pods). */
export function imageUses(pods: Pod[]): ImageUse[] {
  const uses = new Map<string, ImageUse>();
  for (const pod of pods) {
    const workload = workloadOf(pod);
    const images = new Set(
      containersOf(pod.spec)
        .map((container) => container.image ?? '')
        .filter((image) => image !== ''),
    );
    for (const image of images) {
      const key = `${objectKey(workload)}\u0000${image}`;
      const use = uses.get(key) ?? { image, reference: parseImage(image), workload, pods: 0 };
      use.pods += 1;
      uses.set(key, use);
    }
  }
  return [...uses.values()];
}

/** Findings of one image use: `:latest` or no tag, no digest, a registry outside `reports.trusted_registries`. */
export function imageFindings(use: ImageUse, trusted: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  const where = `${describeObject(use.workload)} (${count(use.pods, 'pod')})`;
  if (isLatest(use.reference))
    findings.push({
      rule: 'image.latest-tag',
      severity: 'high',
      title: `${where} runs ${use.image} by ${use.reference.tag ? 'the mutable tag :latest' : 'no tag (:latest)'}`,
      object: use.workload,
      why: ':latest changes under the same name: nodes may run different code, rollbacks restore nothing and a pushed image is taken without review.',
      fix: 'Pin a release tag and its digest (image: repo:1.2.3@sha256:…), updated by a reviewed change.',
    });
  else if (use.reference.digest === '')
    findings.push({
      rule: 'image.no-digest',
      severity: 'low',
      title: `${where} runs ${use.image} by tag without a digest`,
      object: use.workload,
      why: 'Tags are mutable: whoever can push to the repository can change what the tag names, and nodes pull it at the next start.',
      fix: 'Add the digest to the reference (repo:tag@sha256:…) so every node runs the reviewed image.',
    });
  if (trusted.length > 0 && !isTrusted(use.reference, trusted))
    findings.push({
      rule: 'image.untrusted-registry',
      severity: 'medium',
      title: `${where} pulls ${use.image} from ${use.reference.registry}, outside the trusted registries`,
      object: use.workload,
      why: `Images from registries outside reports.trusted_registries (${trusted.join(', ')}) escape the scanning and signing the trusted ones get.`,
      fix: 'Mirror the image into a trusted registry (scanned, signed) and reference it there; or add the registry to reports.trusted_registries after review.',
    });
  return findings;
}
