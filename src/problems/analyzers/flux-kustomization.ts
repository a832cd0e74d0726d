import type { Analyzer } from '../analyzer.js';
import { fluxReadiness } from './flux-readiness.js';

/** Flux Kustomizations (kustomize.toolkit.fluxcd.io/v1): `NotReady` (Ready False, Flux's reason), `Stalled`, `Suspended`. */
export const fluxKustomizationAnalyzer: Analyzer = {
  name: 'kustomization',
  kind: 'Kustomization',
  analyze: (object) => fluxReadiness(object, 'kustomizations.kustomize.toolkit.fluxcd.io'),
};
