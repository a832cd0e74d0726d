import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatValue, type HistorySeries } from './history-model';

const colours = ['#0d9488', '#6366f1', '#d97706', '#db2777', '#2563eb'];

/** One named series over time (uPlot), its values in the series' unit; the last value is written out for screen readers. */
export function HistoryChart({ series, title, index }: { series: HistorySeries; title: string; index: number }): ReactNode {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(document.documentElement);
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: 160,
      scales: { x: { time: true } },
      axes: [
        { stroke: styles.getPropertyValue('--muted') },
        { stroke: styles.getPropertyValue('--muted'), size: 80, values: (_, ticks) => ticks.map((tick) => formatValue(tick, series.unit)) },
      ],
      series: [{}, { label: title, stroke: colours[index % colours.length], width: 2, value: (_, value) => formatValue(value, series.unit) }],
    };
    const data: uPlot.AlignedData = [series.points.map(([time]) => time), series.points.map(([, value]) => value)];
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 240), height: 160 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series, title, index]);
  const last = series.points.at(-1)?.[1];
  return (
    <figure className="history-chart" data-testid={`history-${series.name}`}>
      <figcaption>
        {title}: <strong>{formatValue(last, series.unit)}</strong>
      </figcaption>
      <div ref={container} role="img" aria-label={`${title}: ${formatValue(last, series.unit)}`} />
    </figure>
  );
}
