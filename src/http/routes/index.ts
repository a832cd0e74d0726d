import type { AppDeps } from '../../deps.js';
import type { RouteSpec } from '../types.js';
import { healthRoutes } from './health.js';
import { resourceRoutes } from './resources.js';

/** Every route of the API, each with its declared permission. */
export function allRoutes(deps: AppDeps): RouteSpec[] {
  return [...healthRoutes(deps), ...resourceRoutes(deps)];
}
