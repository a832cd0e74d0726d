import type { Analyzer } from '../analyzer.js';
import { fluxReadiness } from './flux-readiness.js';

/** Flux HelmReleases (helm.toolkit.fluxcd.io/v2): `NotReady` (Ready False, Flux's reason), `Stalled`, `Suspended`. */
export const fluxHelmReleaseAnalyzer: Analyzer = {
  name: 'helmrelease',
  kind: 'HelmRelease',
  analyze: (object) => fluxReadiness(object, 'helmreleases.helm.toolkit.fluxcd.io'),
};
