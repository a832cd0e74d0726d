import { useEffect, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One sample of the cluster's average CPU and memory use, in percent of allocatable. */
export interface UsageSample {
  time: number;
  cpu: number | null;
  memory: number | null;
}

interface UsageChartProps {
  samples: readonly UsageSample[];
  labels: { cpu: string; memory: string; time: string };
  title: string;
}

function dataOf(samples: readonly UsageSample[]): uPlot.AlignedData {
  return [samples.map((sample) => sample.time / 1000), samples.map((sample) => sample.cpu), samples.map((sample) => sample.memory)];
}

/** The cluster's CPU and memory use over the time the page is open (uPlot). */
export function UsageChart({ samples, labels, title }: UsageChartProps): ReactNode {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const styles = getComputedStyle(document.documentElement);
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 240),
      height: 180,
      // At least the last five minutes on the time axis, so the first samples do not stretch over years.
      scales: { x: { time: true, range: (_, min, max) => [Math.min(min, max - 300), max + 15] }, y: { range: [0, 100] } },
      axes: [
        { stroke: styles.getPropertyValue('--muted') },
        { stroke: styles.getPropertyValue('--muted'), values: (_, ticks) => ticks.map((tick) => `${tick}%`) },
      ],
      series: [
        { label: labels.time },
        { label: labels.cpu, stroke: '#0d9488', width: 2, value: (_, value) => (value === null ? '—' : `${value}%`) },
        { label: labels.memory, stroke: '#6366f1', width: 2, value: (_, value) => (value === null ? '—' : `${value}%`) },
      ],
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
    chart.current?.setData(dataOf(samples));
  }, [samples]);

  return <div ref={container} className="usage-chart" role="img" aria-label={title} />;
}
