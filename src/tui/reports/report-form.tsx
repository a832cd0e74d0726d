import { Box, Text, useInput, type Key } from 'ink';
import { useRef, useState, type ReactElement } from 'react';
import type { Translate } from '../core/i18n.js';
import { reportFormatChoices, reportTypeChoices, type ReportRequest } from './reports-api.js';

export interface ReportFormProps {
  /** The namespace the form starts with ('' = the whole cluster). */
  namespace: string;
  t: Translate;
  ascii: boolean;
  onSubmit(request: ReportRequest): void;
  onCancel(): void;
}

const fields = ['type', 'format', 'namespace'] as const;
type Field = (typeof fields)[number];

function cycled<T>(choices: readonly T[], current: T, step: number): T {
  const index = choices.indexOf(current);
  return choices[(index + step + choices.length) % choices.length] ?? current;
}

/** The field the arrows/tab move to, if the key moves. */
function movedField(current: Field, key: Key): Field | undefined {
  const index = fields.indexOf(current);
  if (key.downArrow || (key.tab && !key.shift)) return fields[(index + 1) % fields.length];
  if (key.upArrow || (key.tab && key.shift)) return fields[(index + fields.length - 1) % fields.length];
  return undefined;
}

/** A key on the namespace field: the edited text, or undefined when the key does not edit. */
function editedNamespace(value: string, input: string, key: Key): string | undefined {
  if (key.backspace || key.delete) return value.slice(0, -1);
  if (key.ctrl && input === 'u') return '';
  if (key.ctrl || key.meta || key.leftArrow || key.rightArrow || !/^[a-z0-9-]+$/.test(input)) return undefined;
  return value + input;
}

/** A key on a field: the changed request, or undefined when the key changes nothing. */
function editedRequest(request: ReportRequest, field: Field, input: string, key: Key): ReportRequest | undefined {
  if (field === 'namespace') {
    const namespace = editedNamespace(request.namespace, input, key);
    return namespace === undefined ? undefined : { ...request, namespace };
  }
  const step = key.rightArrow || input === ' ' ? 1 : key.leftArrow ? -1 : 0;
  if (!step) return undefined;
  if (field === 'type') return { ...request, type: cycled(reportTypeChoices, request.type, step) };
  return { ...request, format: cycled(reportFormatChoices, request.format, step) };
}

/** `n` on `:reports`: type and format (left/right), namespace (typed, empty = whole cluster); Enter submits, esc cancels. */
export function ReportForm(props: ReportFormProps): ReactElement {
  const [request, setRequestState] = useState<ReportRequest>({ type: reportTypeChoices[0], format: reportFormatChoices[0], namespace: props.namespace });
  const [field, setField] = useState<Field>('type');
  // Keys typed faster than a redraw: act on the latest state, not the rendered one.
  const latest = useRef({ request, field });
  const update = (next: Partial<{ request: ReportRequest; field: Field }>): void => {
    latest.current = { ...latest.current, ...next };
    if (next.request) setRequestState(next.request);
    if (next.field) setField(next.field);
  };
  useInput((input, key) => {
    const current = latest.current;
    if (key.return) return props.onSubmit(current.request);
    if (key.escape) return props.onCancel();
    const moved = movedField(current.field, key);
    if (moved) return update({ field: moved });
    const request = editedRequest(current.request, current.field, input, key);
    if (request) update({ request });
  });
  const values: Record<Field, string> = {
    type: `< ${request.type} >`,
    format: `< ${request.format} >`,
    namespace: request.namespace || props.t('tui.report.cluster'),
  };
  return (
    <Box flexDirection="column" borderStyle={props.ascii ? 'classic' : 'single'} borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {props.t('tui.report.form.title')}
      </Text>
      {fields.map((name) => (
        <Text key={name} inverse={name === field}>
          {props.t(`tui.report.form.${name}`)}: {values[name]}
        </Text>
      ))}
      <Text dimColor>{props.t('tui.report.form.hint')}</Text>
    </Box>
  );
}
