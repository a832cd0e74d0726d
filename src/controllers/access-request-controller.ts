import type { Logger } from 'pino';
import type { AccessRequestStore } from '../access/access-request-store.js';
import type { Clock } from '../clock.js';
import { AccessRequestReconciler } from './access-request-reconciler.js';
import { Controller } from './controller.js';
import type { ControllerManager } from './manager.js';

/** Registers the AccessRequest controller (runs while this replica leads). */
export function registerAccessRequestController(controllers: ControllerManager, store: AccessRequestStore, clock: Clock, logger: Logger): void {
  controllers.register(new Controller(store.client, new AccessRequestReconciler(store, clock), logger));
}
