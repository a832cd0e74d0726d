import type { RoleName } from '../config/schema.js';
import type { SqlClient } from './sql-client.js';

/** A stored user account. The password hash never leaves the auth module. */
export interface UserRecord {
  username: string;
  passwordHash: string | null;
  role: RoleName;
  email: string | null;
  /** Extra resource-level role names (config `authorization.roles`). */
  roles: string[];
  enabled: boolean;
  locked: boolean;
  /** Where the account comes from: `local` (this store) or a directory. */
  source: string;
  createdAt: string;
  updatedAt: string;
}

export type NewUser = Pick<UserRecord, 'username' | 'passwordHash' | 'role' | 'email' | 'roles' | 'enabled'>;
export type UserChanges = Partial<Pick<UserRecord, 'passwordHash' | 'role' | 'email' | 'roles' | 'enabled' | 'locked'>>;

interface UserRow {
  username: string;
  password_hash: string | null;
  role: RoleName;
  email: string | null;
  roles: string;
  enabled: number | string;
  locked: number | string;
  source: string;
  created_at: string;
  updated_at: string;
}

const columnOf: Record<keyof UserChanges, string> = {
  passwordHash: 'password_hash',
  role: 'role',
  email: 'email',
  roles: 'roles',
  enabled: 'enabled',
  locked: 'locked',
};

function toRecord(row: UserRow): UserRecord {
  return {
    username: row.username,
    passwordHash: row.password_hash,
    role: row.role,
    email: row.email,
    roles: JSON.parse(row.roles) as string[],
    enabled: Number(row.enabled) === 1,
    locked: Number(row.locked) === 1,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumnValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return JSON.stringify(value);
  return value;
}

/** Local user accounts: the only SQL for the users table (SQLite or PostgreSQL through {@link SqlClient}). */
export class UsersStore {
  constructor(
    private readonly database: SqlClient,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  async find(username: string): Promise<UserRecord | undefined> {
    const [row] = await this.database.query<UserRow>('SELECT * FROM users WHERE username = ?', [username]);
    return row ? toRecord(row) : undefined;
  }

  async list(): Promise<UserRecord[]> {
    return (await this.database.query<UserRow>('SELECT * FROM users ORDER BY username')).map(toRecord);
  }

  /** Inserts a user; returns false when the username is taken. */
  async insert(user: NewUser): Promise<boolean> {
    const timestamp = this.now();
    const changes = await this.database.run(
      `INSERT INTO users (username, password_hash, role, email, roles, enabled, locked, source, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, 'local', ?, ?) ON CONFLICT (username) DO NOTHING`,
      [user.username, user.passwordHash, user.role, user.email, JSON.stringify(user.roles), user.enabled ? 1 : 0, timestamp, timestamp],
    );
    return changes === 1;
  }

  /**
   * Creates or refreshes an account of a directory (`source`, e.g. `ldap`) at login: role and email
   * follow the directory; no password hash is kept. A local account of that name is left untouched
   * and undefined returned.
   */
  async upsertExternal(user: Pick<UserRecord, 'username' | 'role' | 'email'>, source: string): Promise<UserRecord | undefined> {
    const timestamp = this.now();
    await this.database.run(
      `INSERT INTO users (username, password_hash, role, email, roles, enabled, locked, source, created_at, updated_at)
       VALUES (?, NULL, ?, ?, '[]', 1, 0, ?, ?, ?)
       ON CONFLICT (username) DO UPDATE SET role = excluded.role, email = excluded.email, updated_at = excluded.updated_at
       WHERE users.source = excluded.source`,
      [user.username, user.role, user.email, source, timestamp, timestamp],
    );
    const stored = await this.find(user.username);
    return stored?.source === source ? stored : undefined;
  }

  /** Applies the given changes; returns the updated record or undefined when the user does not exist. */
  async update(username: string, changes: UserChanges): Promise<UserRecord | undefined> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof UserChanges, unknown][];
    const assignments = entries.map(([key]) => `${columnOf[key]} = ?`);
    const values = entries.map(([, value]) => toColumnValue(value));
    await this.database.run(`UPDATE users SET ${[...assignments, 'updated_at = ?'].join(', ')} WHERE username = ?`, [...values, this.now(), username]);
    return this.find(username);
  }

  async delete(username: string): Promise<boolean> {
    return (await this.database.run('DELETE FROM users WHERE username = ?', [username])) === 1;
  }

  /** Enabled, unlocked admins (the "last admin" rule counts these). */
  async countActiveAdmins(): Promise<number> {
    const [row] = await this.database.query<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM users WHERE role = 'admin' AND enabled = 1 AND locked = 0",
    );
    return Number(row?.count ?? 0);
  }
}
