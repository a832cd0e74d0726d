import type { AppDeps } from '../deps.js';
import { portForwardKind, portForwardSchema, type PortForward } from '../crds/port-forward.js';
import { Controller } from './controller.js';
import { CustomClient } from '../kube/custom-client.js';
import type { Runnable } from './manager.js';
import { allowedForwardIdentities, PortForwardReconciler } from './port-forward-reconciler.js';

/** The PortForward client (service identity, Pilothouse namespace). */
export function portForwardClient(deps: AppDeps): CustomClient<PortForward> {
  return new CustomClient(deps.kube.forIdentity(undefined).rest, portForwardKind, deps.namespace, portForwardSchema as never);
}

/** The PortForward controller as a Runnable for the ControllerManager; stopping it closes every listener. */
export function portForwardController(deps: AppDeps): Runnable {
  const client = portForwardClient(deps);
  const reconciler = new PortForwardReconciler(client, deps.kube, {
    bindAddress: deps.config.portforward.bind_address,
    logger: deps.logger,
    identities: allowedForwardIdentities(deps.config.authorization.impersonation),
  });
  const controller = new Controller(client, reconciler, deps.logger);
  return {
    start: () => controller.start(),
    stop: () => {
      controller.stop();
      void reconciler.closeAll();
    },
  };
}
