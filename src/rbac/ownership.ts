import type { Principal } from './principal.js';

/**
 * The one "owner or admin" rule for objects a user requested (reports, port forwards, access
 * requests, chat approvals): the requester sees and manages their own; admin sees all. Others
 * are answered as if the object did not exist (404), so ids of other users' objects leak nothing.
 */
export function ownsOrAdministers(principal: Principal | undefined, owner: string | undefined): boolean {
  if (!principal) return false;
  return principal.role === 'admin' || (owner !== undefined && owner === principal.username);
}
