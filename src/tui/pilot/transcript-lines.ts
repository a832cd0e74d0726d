import { managedByText } from '@pilothouse/wire/managed-by';
import stringWidth from 'string-width';
import { answerBlocks, plainText, type Block } from '@pilothouse/wire/markdown';
import type { Translate } from '../core/i18n.js';
import { truncateToWidth } from '../core/columns.js';
import { wrapToWidth } from '../core/wrap.js';
import { isWaiting, type Entry, type ToolEntry } from './transcript.js';

/** One drawn line of the pane. */
export interface Line {
  text: string;
  color?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export interface LineOptions {
  width: number;
  /** Now (ms since the epoch): the approval countdown. */
  now: number;
  /** The approval timeout (the service's `authorization.tool_approval.timeout`, 30 s by default). */
  timeoutMs: number;
  /** Tool calls whose result is unfolded. */
  expanded: ReadonlySet<string>;
  /** The selected tool call (enter folds / unfolds it). */
  selected?: string;
  t: Translate;
  ascii: boolean;
}

const marks = {
  unicode: { user: '›', tool: '⚙', warning: '⚠', ok: '✓', failed: '✗', folded: '▸', unfolded: '▾', error: '✗' },
  ascii: { user: '>', tool: '*', warning: '!', ok: '+', failed: 'x', folded: '+', unfolded: '-', error: 'x' },
};
const classColor: Record<string, string> = { read: 'green', write: 'yellow', dangerous: 'red', interactive: 'magenta', unknown: 'magenta' };
const unfoldedLimit = 400;

export { wrapToWidth } from '../core/wrap.js';

const wrapped = (text: string, width: number, style: Omit<Line, 'text'>, indent = ''): Line[] =>
  wrapToWidth(text, Math.max(4, width - stringWidth(indent))).map((piece) => ({ ...style, text: indent + piece }));

/** The line under the command: the countdown while it waits, else what became of it. */
function toolState(entry: ToolEntry, options: LineOptions): Line[] {
  const { t, now, timeoutMs } = options;
  if (isWaiting(entry)) {
    const timeout = entry.timeoutMs ?? timeoutMs;
    // `now` ticks once a second and may be older than the request: never more than the whole timeout.
    const seconds = Math.min(Math.ceil(timeout / 1000), Math.max(0, Math.ceil((entry.requestedAt + timeout - now) / 1000)));
    const onCluster = entry.cluster ? wrapped(`${t('tui.pilot.onCluster')}: ${entry.cluster}`, options.width, { color: 'cyan', bold: true }, '  ') : [];
    return [...onCluster, ...wrapped(t('tui.pilot.approve', { seconds }), options.width, { color: 'yellow', bold: true }, '  ')];
  }
  if (entry.status) return toolResult(entry, options);
  const key = entry.decision === 'rejected' ? 'tui.pilot.rejected' : 'tui.pilot.running';
  return [{ text: `  ${t(key)}`, dim: true }];
}

/** The result, folded to one line (status and first line) unless unfolded. */
function toolResult(entry: ToolEntry, options: LineOptions): Line[] {
  const mark = options.ascii ? marks.ascii : marks.unicode;
  const ok = entry.status === 'executed';
  const resultLines = linesOf(entry.result);
  const open = options.expanded.has(entry.id);
  const more = resultLines.length > 1 && !open ? `  ${options.t('tui.pilot.more', { count: resultLines.length - 1 })}` : '';
  const head = `  ${ok ? mark.ok : mark.failed} ${open ? mark.unfolded : mark.folded} ${options.t(`tui.pilot.status.${entry.status}`)}`;
  const first = open ? '' : ` · ${resultLines[0] ?? ''}`;
  const folded: Line = { text: truncateToWidth(head + first, options.width - stringWidth(more)) + more, color: ok ? 'green' : 'red' };
  if (!open) return [folded];
  const body = resultLines.slice(0, unfoldedLimit).flatMap((line) => wrapped(line, options.width, {}, '    '));
  return [folded, ...body];
}

const linesOf = (result: string | undefined): string[] => (result ?? '').replace(/\n$/, '').split('\n');

function toolLines(entry: ToolEntry, options: LineOptions): Line[] {
  const mark = options.ascii ? marks.ascii : marks.unicode;
  const label = `[${options.t(`tui.pilot.class.${entry.type}`)}]`;
  const head = wrapped(`${mark.tool} ${entry.command}  ${label}`, options.width, { bold: true, color: classColor[entry.type] });
  if (entry.id === options.selected) head[0] = { ...head[0]!, inverse: true };
  const blocked = entry.blocked ? wrapped(options.t('tui.pilot.blocked'), options.width, { color: 'red' }, '  ') : [];
  const warnings = entry.warnings.flatMap((warning) => wrapped(`${mark.warning} ${warning}`, options.width, { color: 'yellow' }, '  '));
  return [...head, ...blocked, ...warnings, ...managedLines(entry, options), ...toolState(entry, options), ...accessLines(entry, options)];
}

/** Objects of the call that Argo CD or Flux manages: a manual change is reverted by that controller. */
function managedLines(entry: ToolEntry, options: LineOptions): Line[] {
  return (entry.managedBy ?? []).flatMap(({ object, manager }) => {
    const target = `${object.kind.toLowerCase()}/${object.name}${object.namespace ? ` -n ${object.namespace}` : ''}`;
    const text = options.t('tui.pilot.managedBy', { object: target, manager: managedByText(manager) });
    return wrapped(`${options.ascii ? '!' : '↺'} ${text}`, options.width, { color: 'magenta' }, '  ');
  });
}

/** What the policy refused for want of an access request (and `r` to file it), or the request filed for it. */
function accessLines(entry: ToolEntry, options: LineOptions): Line[] {
  const { accessNeeded, accessRequest } = entry;
  if (!accessNeeded) return [];
  const { t } = options;
  if (accessRequest) return wrapped(t('tui.access.filed', { id: accessRequest.id, phase: accessRequest.phase }), options.width, { color: 'cyan' }, '  ');
  const namespaces = accessNeeded.namespaces.length ? accessNeeded.namespaces.join(', ') : t('tui.pilot.allNamespaces');
  const text = t('tui.pilot.accessNeeded', { permission: accessNeeded.permission, resources: accessNeeded.resources.join(', '), namespaces });
  return wrapped(text, options.width, { color: 'yellow' }, '  ');
}

/** One Markdown block of an answer as lines: headings bold, list items bulleted, code dim; inline markers dropped. */
function blockLines(block: Block, options: LineOptions): Line[] {
  const bullet = options.ascii ? '-' : '•';
  switch (block.kind) {
    case 'heading':
      return wrapped(plainText(block.inlines), options.width, { bold: true });
    case 'list':
      return block.items.flatMap((item, index) => wrapped(`${block.ordered ? `${index + 1}.` : bullet} ${plainText(item)}`, options.width, {}));
    case 'code':
      return block.text.split('\n').map((line) => ({ text: truncateToWidth(`  ${line}`, options.width), dim: true }));
    default:
      return wrapped(plainText(block.inlines), options.width, {});
  }
}

/** The assistant's Markdown drawn for the terminal (packages/wire/markdown.ts), never its raw markers. */
function answerLines(text: string, options: LineOptions): Line[] {
  return answerBlocks(text).flatMap((block, index) => [...(index > 0 ? [{ text: '' }] : []), ...blockLines(block, options)]);
}

function entryLines(entry: Entry, options: LineOptions): Line[] {
  const mark = options.ascii ? marks.ascii : marks.unicode;
  switch (entry.kind) {
    case 'user':
      return wrapped(`${mark.user} ${entry.text}`, options.width, { color: 'cyan', bold: true });
    case 'assistant':
      return answerLines(entry.text, options);
    case 'tool':
      return toolLines(entry, options);
    case 'error':
      return wrapped(`${mark.error} ${entry.code}: ${entry.text}`, options.width, { color: 'red' });
  }
}

/** The transcript as lines of the pane's width; `starts` maps a tool call's id to its first line. */
export function transcriptLines(entries: Entry[], options: LineOptions): { lines: Line[]; starts: Map<string, number> } {
  const lines: Line[] = [];
  const starts = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind === 'tool') starts.set(entry.id, lines.length);
    else if (lines.length > 0 && entry.kind === 'user') lines.push({ text: '' });
    lines.push(...entryLines(entry, options));
  }
  return { lines, starts };
}
