import type { Severity } from '../document/document.js';

/** Severity colours shared by the HTML and PDF formats. */
export const severityColours: Record<Severity, string> = {
  critical: '#7f1d1d',
  high: '#dc2626',
  medium: '#d97706',
  low: '#2563eb',
  info: '#6b7280',
};

/** The inline stylesheet of the HTML format (no external assets). */
export const htmlStyle = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 70rem; color: #111827; line-height: 1.45; padding: 0 1rem; }
h1 { border-bottom: 3px solid #1f2937; padding-bottom: .3rem; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #d1d5db; }
table { border-collapse: collapse; width: 100%; margin: .8rem 0 1.2rem; font-size: .9rem; }
th, td { border: 1px solid #d1d5db; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
.meta { color: #4b5563; }
.unavailable { background: #fef3c7; border-left: 4px solid #d97706; padding: .5rem .8rem; }
.score { font-size: 1.2rem; font-weight: 600; }
.finding { border-left: 4px solid var(--severity); padding: .3rem .8rem; margin: .8rem 0; background: #f9fafb; }
.badge { display: inline-block; color: #fff; background: var(--severity); border-radius: .25rem; padding: 0 .4rem; font-size: .75rem; text-transform: uppercase; margin-right: .4rem; }
.bar { display: flex; align-items: center; gap: .5rem; margin: .2rem 0; }
.bar-label { width: 14rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar-track { flex: 1; background: #e5e7eb; height: .9rem; border-radius: .2rem; }
.bar-fill { background: #2563eb; height: 100%; border-radius: .2rem; }
.bar-value { width: 12rem; font-variant-numeric: tabular-nums; }
code { background: #f3f4f6; padding: 0 .2rem; }
`;
