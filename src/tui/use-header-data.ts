import { useEffect, useState } from 'react';
import type { PilothouseApi } from './api/pilothouse-api.js';

export interface HeaderData {
  health?: string;
  user?: string;
  role?: string;
  pendingRequests: number;
}

const refreshMs = 10_000;

/** Health, the signed-in user and role, and the user's pending access requests, re-read every few seconds (and when `round` changes). */
export function useHeaderData(api: PilothouseApi, signedIn: boolean, round: number): HeaderData {
  const [data, setData] = useState<HeaderData>({ pendingRequests: 0 });
  useEffect(() => {
    if (!signedIn) return undefined;
    let stopped = false;
    const read = async (): Promise<void> => {
      const [health, me, requests] = await Promise.all([
        api.health().catch(() => undefined),
        api.me().catch(() => undefined),
        api.accessRequests().catch(() => []),
      ]);
      if (stopped) return;
      setData({
        health: health?.status ?? 'unreachable',
        user: me?.username,
        role: me?.role,
        pendingRequests: requests.filter((request) => request.phase === 'Pending').length,
      });
    };
    void read();
    const timer = setInterval(() => void read(), refreshMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api, signedIn, round]);
  return data;
}
