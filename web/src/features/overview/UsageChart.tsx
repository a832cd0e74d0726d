import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One sample of the cluster's average CPU and memory use, in percent of allocatable. */
export interface UsageSample {
  time: number;
  cpu: number | null;
  memory: number | null;
}

/** The window the chart shows: the last 15 minutes of samples (one every 15 seconds). */
export const usageWindowMs = 15 * 60_000;
const windowSeconds = usageWindowMs / 1000;

/** Minute ticks of the time axis: every 1, 2, 5, 10 or 15 minutes, whichever fits. */
const minuteIncrements = [60, 120, 300, 600, 900];

/** A tick (Unix seconds) as the time of day in minutes, hh:mm (24 hours). */
export function minuteLabel(tick: number): string {
  const date = new Date(tick * 1000);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

interface UsageChartProps {
  samples: readonly UsageSample[];
  labels: { cpu: string; memory: string; time: string };
  title: string;
}

/** The newest known value of a series (what the legend shows while the pointer is not over the chart). */
function latest(values: readonly (number | null | undefined)[] | undefined): number | null {
  for (let index = (values?.length ?? 0) - 1; index >= 0; index--) {
    const value = values?.[index];
    if (typeof value === 'number') return value;
  }
  return null;
}

/** A legend value: the hovered sample's, or with no pointer over the chart the newest one (never `--`). */
function legendValue(format: (value: number) => string): (chart: uPlot, value: number | null, series: number, index: number | null) => string {
  return (chart, value, series, index) => {
    const shown = index === null ? latest(chart.data[series] as (number | null)[]) : value;
    return shown === null ? '—' : format(shown);
  };
}

const clockOf = (seconds: number): string => new Date(seconds * 1000).toLocaleTimeString();

function dataOf(samples: readonly UsageSample[]): uPlot.AlignedData {
  return [samples.map((sample) => sample.time / 1000), samples.map((sample) => sample.cpu), samples.map((sample) => sample.memory)];
}

/**
 * The cluster's CPU and memory use over the last 15 minutes the page was open (uPlot). The time axis
 * spans that window whatever the number of samples (uPlot alone stretches one sample over years) and
 * is labelled in minutes; the labels are also written out for screen readers.
 */
export function UsageChart({ samples, labels, title }: UsageChartProps): ReactNode {
  const container = useRef<HTMLDivElement>(null);
  const axisText = useRef<HTMLParagraphElement>(null);
  const chart = useRef<uPlot | null>(null);
  const windowEnd = useRef((samples.at(-1)?.time ?? 0) / 1000);
  const tickLabels = useRef<string[]>([]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(document.documentElement);
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: 180,
      scales: { x: { time: true, range: () => [windowEnd.current - windowSeconds, windowEnd.current] }, y: { range: [0, 100] } },
      axes: [
        {
          stroke: styles.getPropertyValue('--muted'),
          incrs: minuteIncrements,
          values: (_, ticks) => {
            tickLabels.current = ticks.map(minuteLabel);
            return tickLabels.current;
          },
        },
        { stroke: styles.getPropertyValue('--muted'), values: (_, ticks) => ticks.map((tick) => `${tick}%`) },
      ],
      series: [
        { label: labels.time, value: legendValue(clockOf) },
        { label: labels.cpu, stroke: '#0d9488', width: 2, value: legendValue((value) => `${value}%`) },
        { label: labels.memory, stroke: '#6366f1', width: 2, value: legendValue((value) => `${value}%`) },
      ],
      hooks: {
        draw: [
          () => {
            if (axisText.current) axisText.current.textContent = tickLabels.current.join(', ');
          },
        ],
      },
    };
    chart.current = new uPlot(options, [[], [], []], element);
    const resize = new ResizeObserver(() => chart.current?.setSize({ width: Math.max(element.clientWidth, 240), height: 180 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [labels.cpu, labels.memory, labels.time]);

  useEffect(() => {
    const last = samples.at(-1);
    windowEnd.current = (last?.time ?? Date.now()) / 1000;
    chart.current?.setData(dataOf(samples));
    // The legend follows the newest sample while no sample is hovered.
    if (chart.current && chart.current.cursor.idx == null) chart.current.setLegend({ idxs: chart.current.series.map(() => null) });
  }, [samples]);

  return (
    <>
      <div ref={container} className="usage-chart" role="img" aria-label={title} aria-describedby="usage-time-axis" />
      <p ref={axisText} id="usage-time-axis" className="visually-hidden" data-testid="usage-time-axis" />
    </>
  );
}
