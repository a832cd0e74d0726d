/** `pilothouse health [--url URL]`: prints the health report; exit 0 only when healthy. */
export async function runHealthCommand(url: string): Promise<number> {
  try {
    const response = await fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(10_000) });
    const body = (await response.json()) as { status?: string };
    process.stdout.write(`${JSON.stringify(body)}\n`);
    return response.ok && body.status === 'healthy' ? 0 : 1;
  } catch (error) {
    process.stderr.write(`health check failed: ${(error as Error).message}\n`);
    return 1;
  }
}
