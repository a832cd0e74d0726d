import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { stopProcess } from './child-process.js';

/** The directory every test slapd serves. */
export const ldapSuffix = 'dc=pilothouse,dc=test';
export const ldapRootDn = `cn=admin,${ldapSuffix}`;
export const ldapPeopleDn = `ou=people,${ldapSuffix}`;
export const ldapGroupsDn = `ou=groups,${ldapSuffix}`;

export interface LdapTestUser {
  uid: string;
  password: string;
  mail?: string;
  /** `cn` values of the groups (`groupOfNames` under ou=groups) the user is a member of. */
  groups: string[];
}

export interface StartSlapdOptions {
  users: LdapTestUser[];
  /** The password of the rootdn `cn=admin,dc=pilothouse,dc=test`. */
  rootPassword: string;
}

export interface RunningSlapd {
  url: string;
  port: number;
  /** Kills slapd (waits for its exit) and removes its directory. */
  stop(): Promise<void>;
}

const slapdBinary = '/usr/sbin/slapd';
const slapaddBinary = '/usr/sbin/slapadd';

/** `{SSHA}` as slappasswd makes it: base64(sha1(password + salt) + salt). */
function sshaHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

function slapdConfig(directory: string, rootPassword: string): string {
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((schema) => `include /etc/ldap/schema/${schema}.schema`),
    `pidfile ${join(directory, 'slapd.pid')}`,
    // Like permissive directories (e.g. Active Directory): a DN with an empty password binds
    // "unauthenticated" and succeeds, so the product must refuse empty passwords itself.
    'allow bind_anon_dn',
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'database mdb',
    `suffix "${ldapSuffix}"`,
    `rootdn "${ldapRootDn}"`,
    `rootpw ${sshaHash(rootPassword)}`,
    `directory ${join(directory, 'db')}`,
    '',
  ].join('\n');
}

function entry(dn: string, attributes: [string, string][]): string {
  return [`dn: ${dn}`, ...attributes.map(([name, value]) => `${name}: ${value}`), ''].join('\n');
}

function userEntry(user: LdapTestUser): string {
  const attributes: [string, string][] = [
    ['objectClass', 'inetOrgPerson'],
    ['uid', user.uid],
    ['cn', user.uid],
    ['sn', user.uid],
    ['userPassword', sshaHash(user.password)],
  ];
  if (user.mail) attributes.push(['mail', user.mail]);
  return entry(`uid=${user.uid},${ldapPeopleDn}`, attributes);
}

/** The suffix, ou=people with the users, ou=groups with one groupOfNames per group named by any user. */
function directoryLdif(users: LdapTestUser[]): string {
  const groupNames = [...new Set(users.flatMap((user) => user.groups))];
  const groups = groupNames.map((name) => {
    const members = users.filter((user) => user.groups.includes(name)).map((user) => ['member', `uid=${user.uid},${ldapPeopleDn}`] as [string, string]);
    return entry(`cn=${name},${ldapGroupsDn}`, [['objectClass', 'groupOfNames'], ['cn', name], ...members]);
  });
  return [
    entry(ldapSuffix, [
      ['objectClass', 'dcObject'],
      ['objectClass', 'organization'],
      ['o', 'pilothouse'],
      ['dc', 'pilothouse'],
    ]),
    entry(ldapPeopleDn, [
      ['objectClass', 'organizationalUnit'],
      ['ou', 'people'],
    ]),
    entry(ldapGroupsDn, [
      ['objectClass', 'organizationalUnit'],
      ['ou', 'groups'],
    ]),
    ...users.map(userEntry),
    ...groups,
  ].join('\n');
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForBind(url: string, rootPassword: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited with ${child.exitCode}: ${output()}`);
    const client = new Client({ url, connectTimeout: 1000, timeout: 1000 });
    try {
      await client.bind(ldapRootDn, rootPassword);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`slapd did not answer at ${url}: ${String(error)}; output: ${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}

/**
 * Starts a private OpenLDAP slapd (Debian package `slapd`) on a free 127.0.0.1 port with an mdb
 * database loaded offline by slapadd: ou=people (inetOrgPerson, SSHA passwords) and ou=groups
 * (groupOfNames). Independent of any system slapd.
 */
export async function startSlapd(options: StartSlapdOptions): Promise<RunningSlapd> {
  const directory = mkdtempSync(join(tmpdir(), 'pilothouse-slapd-'));
  mkdirSync(join(directory, 'db'));
  const configPath = join(directory, 'slapd.conf');
  writeFileSync(configPath, slapdConfig(directory, options.rootPassword));
  writeFileSync(join(directory, 'data.ldif'), directoryLdif(options.users));
  const loaded = spawnSync(slapaddBinary, ['-f', configPath, '-l', join(directory, 'data.ldif')], { encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`slapadd failed (${loaded.status}): ${loaded.stderr}${loaded.error?.message ?? ''}`);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const child = spawn(slapdBinary, ['-d', '0', '-h', `${url}/`, '-f', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
  };
  await waitForBind(url, options.rootPassword, child, () => output).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, port, stop };
}
