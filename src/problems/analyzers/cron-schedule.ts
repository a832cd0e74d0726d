const macros = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const names = /^(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC|SUN|MON|TUE|WED|THU|FRI|SAT)$/i;
const ranges: Array<[number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function validValue(text: string, [low, high]: [number, number]): boolean {
  if (names.test(text)) return true;
  if (!/^\d+$/.test(text)) return false;
  const value = Number(text);
  return value >= low && value <= high;
}

function validPart(part: string, range: [number, number]): boolean {
  const [base, step, extra] = part.split('/');
  if (extra !== undefined || (step !== undefined && !/^\d+$/.test(step))) return false;
  if (base === '*' || base === '?') return true;
  const bounds = (base ?? '').split('-');
  return bounds.length <= 2 && bounds.every((bound) => validValue(bound, range));
}

/** Whether a CronJob schedule is one the controller accepts (five fields or a macro; `CRON_TZ=`/`TZ=` prefix allowed). */
export function validSchedule(schedule: string): boolean {
  const text = schedule.trim().replace(/^(CRON_TZ|TZ)=\S+\s+/, '');
  if (macros.has(text) || /^@every\s+\S+$/.test(text)) return true;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return false;
  return fields.every((field, index) => field.split(',').every((part) => validPart(part, ranges[index] ?? [0, 59])));
}
