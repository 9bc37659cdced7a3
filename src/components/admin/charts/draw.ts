/**
 * Draws every `canvas[data-admin-chart]` of the page with Chart.js (only the parts used, so the admin
 * bundle stays small). Animations follow the reader's reduced-motion setting.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { formatValue, type ChartSpec } from './chart-spec';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend, Filler);

/** Brand blue, then colours that stay apart for common colour-vision differences. */
const COLOURS = ['#2563eb', '#f59e0b', '#10b981', '#db2777', '#7c3aed', '#64748b'];

export function drawCharts(root: ParentNode) {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  for (const canvas of root.querySelectorAll<HTMLCanvasElement>('canvas[data-admin-chart]')) {
    if (Chart.getChart(canvas)) continue;
    const spec = JSON.parse(canvas.dataset.adminChart ?? '{}') as ChartSpec;
    const horizontal = spec.kind === 'horizontal-bar';
    new Chart(canvas, {
      type: spec.kind === 'line' ? 'line' : 'bar',
      data: {
        labels: spec.labels,
        datasets: spec.series.map((s, i) => ({
          label: s.label,
          data: s.values,
          borderColor: COLOURS[i % COLOURS.length],
          backgroundColor: spec.kind === 'line' ? `${COLOURS[i % COLOURS.length]}22` : COLOURS[i % COLOURS.length],
          fill: spec.kind === 'line' && i === 0,
          tension: 0.25,
          pointRadius: spec.labels.length > 31 ? 0 : 2,
          borderWidth: 2,
          maxBarThickness: 28,
        })),
      },
      options: {
        animation: reduce ? false : undefined,
        maintainAspectRatio: false,
        responsive: true,
        indexAxis: horizontal ? 'y' : 'x',
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { display: spec.series.length > 1, position: 'bottom' },
          tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${formatValue(Number(ctx.raw), spec.unit)}` } },
        },
        scales: {
          [horizontal ? 'x' : 'y']: {
            beginAtZero: true,
            ticks: { precision: 0, callback: (v) => formatValue(Number(v), spec.unit) },
          },
          [horizontal ? 'y' : 'x']: {
            ticks: {
              autoSkip: true,
              maxRotation: 0,
              callback(value) {
                const label = this.getLabelForValue(Number(value));
                return label.length > 28 ? `${label.slice(0, 27)}…` : label;
              },
            },
          },
        },
      },
    });
  }
}
