import { useEffect, useState } from 'react';
import type { SafetyReport } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';

const debounceMs = 350;

/** The command in a message that is a command line (`kubectl …` or `$ …`), else undefined. */
export function commandOf(message: string): string | undefined {
  const line = message.trim();
  if (line.startsWith('$ ')) return line.slice(2).trim() || undefined;
  if (/^kubectl\s+\S/.test(line)) return line;
  return undefined;
}

/** Debounced `POST /api/tool/analyze` of the command being typed (nothing runs). */
export function useCommandAnalysis(message: string): SafetyReport | undefined {
  const client = useApi();
  const command = commandOf(message);
  const [report, setReport] = useState<SafetyReport>();
  // No command, no report: a later command starts without the old one (adjusted while rendering).
  if (!command && report !== undefined) setReport(undefined);
  useEffect(() => {
    if (!command) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      client.call('POST', '/api/tool/analyze', { body: { command, tool: 'bash' }, signal: controller.signal }).then(
        (answer) => !controller.signal.aborted && setReport(answer),
        () => !controller.signal.aborted && setReport(undefined),
      );
    }, debounceMs);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [client, command]);
  return command ? report : undefined;
}
