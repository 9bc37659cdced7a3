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
import { CHART_COLOURS, durationStepMs, formatValue, type ChartSpec } from './chart-spec';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip, Legend, Filler);

// Axis and legend text in slate-600: 7:1 against the white card.
Chart.defaults.color = '#475569';
const LINE_DASHES = [[], [6, 4], [2, 3]];

export function drawCharts(root: ParentNode) {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  for (const canvas of root.querySelectorAll<HTMLCanvasElement>('canvas[data-admin-chart]')) {
    if (Chart.getChart(canvas)) continue;
    const spec = JSON.parse(canvas.dataset.adminChart ?? '{}') as ChartSpec;
    const horizontal = spec.kind === 'horizontal-bar';
    // Long names (paths, hosts) leave the bars room on a phone; the table has them in full.
    const maxLabel = canvas.clientWidth < 480 ? 18 : 28;
    new Chart(canvas, {
      type: spec.kind === 'line' ? 'line' : 'bar',
      data: {
        labels: spec.labels,
        datasets: spec.series.map((s, i) => ({
          label: s.label,
          data: s.values,
          borderColor: CHART_COLOURS[i % CHART_COLOURS.length],
          backgroundColor: spec.kind === 'line' ? `${CHART_COLOURS[i % CHART_COLOURS.length]}22` : CHART_COLOURS[i % CHART_COLOURS.length],
          fill: spec.kind === 'line' && i === 0,
          tension: 0.25,
          pointRadius: spec.labels.length > 31 ? 0 : 2,
          borderWidth: 2,
          // Lines differ by dash as well as colour, so they stay apart without colour vision.
          borderDash: spec.kind === 'line' ? LINE_DASHES[i % LINE_DASHES.length] : undefined,
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
            stacked: spec.stacked === true,
            beginAtZero: true,
            ticks: {
              precision: 0,
              ...(spec.unit === 'duration' && { stepSize: durationStepMs(Math.max(0, ...spec.series.flatMap((s) => s.values))) }),
              callback: (v) => formatValue(Number(v), spec.unit),
            },
          },
          [horizontal ? 'y' : 'x']: {
            stacked: spec.stacked === true,
            ticks: {
              // Every bar keeps its name (a list is short); a series of days skips labels to fit.
              autoSkip: !horizontal,
              maxRotation: 0,
              callback(value) {
                const label = this.getLabelForValue(Number(value));
                return label.length > maxLabel ? `${label.slice(0, maxLabel - 1)}…` : label;
              },
            },
          },
        },
      },
    });
  }
}
