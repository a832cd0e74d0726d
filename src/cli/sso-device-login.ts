import { setTimeout as sleep } from 'node:timers/promises';

/** What to show the user while a device sign-in waits for them. */
export interface DeviceLoginPrompt {
  verificationUri: string;
  verificationUriComplete?: string;
  userCode: string;
  expiresIn: number;
}

/** A Pilothouse session, as `POST /api/auth/login` returns it. */
export interface DeviceLoginSession {
  token: string;
  expires_at: string;
  username: string;
  role: string;
}

interface ErrorBody {
  error?: string;
  code?: string;
}

async function post<T>(url: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; body: T & ErrorBody }> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T & ErrorBody };
}

/**
 * Signs in to a Pilothouse under `--auth-mode oidc` with the device authorization grant (the terminal
 * UI's `--sso`, scripts): asks the service for a code, hands it to `show` (print the URL and code),
 * then polls at the interval the provider asks for until the user has signed in, refused, or the code expired.
 */
export async function deviceLogin(baseUrl: string, show: (prompt: DeviceLoginPrompt) => void, signal?: AbortSignal): Promise<DeviceLoginSession> {
  const base = baseUrl.replace(/\/$/, '');
  const started = await post<DeviceLoginPrompt & { handle: string; interval: number }>(`${base}/api/auth/oidc/device`, {}, signal);
  if (started.status !== 200) throw new Error(`SSO sign-in cannot start: ${started.body.error ?? `HTTP ${started.status}`}`);
  const { handle, verificationUri, verificationUriComplete, userCode, expiresIn } = started.body;
  show({ verificationUri, verificationUriComplete, userCode, expiresIn });
  let interval = Math.max(1, started.body.interval);
  for (;;) {
    await sleep(interval * 1000, undefined, { signal });
    const polled = await post<DeviceLoginSession & { status: string; interval?: number }>(`${base}/api/auth/oidc/device/token`, { handle }, signal);
    if (polled.status !== 200) throw new Error(`SSO sign-in failed: ${polled.body.error ?? `HTTP ${polled.status}`}`);
    if (polled.body.status === 'complete') {
      const { token, expires_at, username, role } = polled.body;
      return { token, expires_at, username, role };
    }
    interval = Math.max(1, polled.body.interval ?? interval);
  }
}
