import type { Config } from '../config/schema.js';
import type { Clock } from '../clock.js';
import type { SessionsStore } from '../store/sessions-store.js';
import type { UsersStore } from '../store/users-store.js';
import type { LoginService } from './login/login.js';
import type { OidcService } from './oidc/oidc-service.js';
import type { AsyncWindowCounter, FixedWindowCounter } from './login/rate-window.js';
import type { SessionManager } from './sessions/sessions.js';
import type { UserAdmin } from './users/user-admin.js';

/** The security core's services: users, sessions and tokens, login, user administration, rate windows. */
export interface SecurityServices {
  /** The effective auth mode: `none` under --no-auth, else `--auth-mode`, else config `auth.mode`. */
  mode: AuthModeName;
  clock: Clock;
  users: UsersStore;
  sessionsStore: SessionsStore;
  sessions: SessionManager;
  login: LoginService;
  userAdmin: UserAdmin;
  /** Single sign-on (OpenID Connect); enabled once started under `--auth-mode oidc`. */
  oidc: OidcService;
  /** Request counters of the general and chat rate limits (per replica, in memory). */
  rateWindows: FixedWindowCounter;
  /** The login throttle's counters, in the shared store (counted across replicas). */
  loginWindows: AsyncWindowCounter;
}

export type AuthModeName = Config['auth']['mode'];
