/**
 * A progress bar with counts and an ETA for long CLI steps, on stderr so stdout stays the report. In a
 * terminal it redraws in place; in a log (CI, a pipe) it writes a line every few seconds instead.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

/** Nothing is drawn for steps that end within this time: no bar flashes on a small project. */
const SHOW_AFTER_MS = 1000;

export function progressBar(label: string): Progress {
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  let last = { done: 0, total: 0 };
  return {
    update(done, total = last.total) {
      last = { done, total };
      if (!bar && Date.now() - started < SHOW_AFTER_MS) return;
      if (!bar) {
        bar = new cliProgress.SingleBar(
          {
            stream: process.stderr,
            format: `${label.padEnd(12)} {bar} {value}/{total} · {percentage}% · ETA {eta_formatted}`,
            noTTYOutput: true,
            notTTYSchedule: 5000,
            hideCursor: null,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop() {
      // stop() draws the last value once more (an update with an unchanged value would compute no ETA).
      bar?.stop();
    },
  };
}
