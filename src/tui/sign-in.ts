import type { ClientSession } from './api/client.js';
import { errorFromResponse } from '@pilothouse/wire/wire-client';

/** POST /api/auth/login: a session for a username and password; ApiError (UNAUTHORIZED, ...) when refused. */
export async function passwordLogin(baseUrl: string, username: string, password: string): Promise<ClientSession & { username: string; role: string }> {
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw await errorFromResponse(response);
  const body = (await response.json()) as { token: string; expires_at: string; username: string; role: string };
  return { token: body.token, expiresAt: Date.parse(body.expires_at), username: body.username, role: body.role };
}

/**
 * The way back to the login prompt: the API client asks it on a 401, the application answers by
 * showing its login prompt. Concurrent 401s share one prompt.
 */
export class SignInBridge {
  private handler?: () => Promise<ClientSession | undefined>;
  private pending?: Promise<ClientSession | undefined>;

  attach(handler: () => Promise<ClientSession | undefined>): void {
    this.handler = handler;
  }

  request(): Promise<ClientSession | undefined> {
    if (!this.handler) return Promise.resolve(undefined);
    this.pending ??= this.handler().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }
}
