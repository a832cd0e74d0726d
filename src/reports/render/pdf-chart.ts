import type { Content } from 'pdfmake/interfaces.js';
import type { BarChart } from '../document/document.js';

const labelWidth = 150;
const valueWidth = 110;
const barArea = 250;
const barHeight = 12;
const gap = 6;

/** One bar: a label, a grey track and a filled share (red past 90%), drawn as canvas vectors. */
function bar(entry: BarChart['bars'][number], largest: number, unit: string): Content {
  const limit = entry.max ?? largest;
  const share = limit > 0 ? Math.min(1, entry.value / limit) : 0;
  const colour = share >= 0.9 ? '#dc2626' : '#2563eb';
  const suffix = entry.max === undefined ? '' : ` / ${entry.max}`;
  return {
    columns: [
      { width: labelWidth, text: entry.label, fontSize: 8, noWrap: true },
      {
        width: barArea,
        canvas: [
          { type: 'rect', x: 0, y: 1, w: barArea, h: barHeight, color: '#e5e7eb' },
          { type: 'rect', x: 0, y: 1, w: Math.max(0.5, share * barArea), h: barHeight, color: colour },
        ],
      },
      { width: valueWidth, text: `${entry.value}${suffix} ${unit}`, fontSize: 8, margin: [6, 2, 0, 0] },
    ],
    margin: [0, 0, 0, gap],
  };
}

/** A horizontal bar chart (usage against allocatable), kept on one page when it fits. */
export function pdfBarChart(chart: BarChart): Content {
  const largest = Math.max(1, ...chart.bars.map((entry) => entry.max ?? entry.value));
  return {
    stack: [{ text: chart.title, style: 'chartTitle' }, ...chart.bars.map((entry) => bar(entry, largest, chart.unit))],
    unbreakable: chart.bars.length <= 25,
    margin: [0, 6, 0, 10],
  };
}
