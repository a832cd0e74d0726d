import type { ReactNode } from 'react';
import type { CommandClass } from '@pilothouse/wire/types';
import { useT } from '../i18n';

const classes: CommandClass[] = ['read', 'write', 'dangerous', 'interactive', 'unknown'];

/** The safety class of a command as a coloured badge. */
export function ClassBadge({ type }: { type: CommandClass | string | undefined }): ReactNode {
  const t = useT();
  const known = classes.includes(type as CommandClass) ? (type as CommandClass) : 'unknown';
  return <span className={`badge badge-${known}`}>{t(`class.${known}`)}</span>;
}
