import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { UsersStore } from '../../store/users-store.js';
import { LocalPasswordVerifier, type CredentialVerifier } from '../login/credential-verifier.js';
import { LdapDirectory } from './ldap-directory.js';
import { LdapCredentialVerifier } from './ldap-verifier.js';

/** Config `auth.mode`, where `ldap.enabled: true` turns the default `local` into `ldap`. */
export function configuredAuthMode(config: Config): Config['auth']['mode'] {
  return config.auth.mode === 'local' && config.ldap.enabled ? 'ldap' : config.auth.mode;
}

/** The password checker of the effective auth mode: the LDAP directory under `ldap`, local hashes otherwise. */
export function credentialVerifierFor(mode: Config['auth']['mode'], config: Config, users: UsersStore, logger: Logger): CredentialVerifier {
  const local = new LocalPasswordVerifier(users);
  if (mode !== 'ldap') return local;
  return new LdapCredentialVerifier({ directory: new LdapDirectory(config.ldap), users, local, groupRoles: config.ldap.group_roles, logger });
}
