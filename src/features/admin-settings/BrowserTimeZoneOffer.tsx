/**
 * The browser's own time zone, offered while the site has none (decision 055: "Your browser is in
 * Europe/Berlin — use it?"). Read with Intl after hydration: the server cannot know it, and the offer must
 * not differ between the server's HTML and the island's first render.
 */
import { useEffect, useState } from 'react';
import { isTimeZone, timeZoneLabel } from '../../shared/dates';

/** The zone this browser runs in, once hydrated; undefined before, or when the browser names none the runtime knows. */
export function useBrowserTimeZone(): string | undefined {
  const [zone, setZone] = useState<string>();
  useEffect(() => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own && isTimeZone(own)) setZone(own);
  }, []);
  return zone;
}

interface OfferProps {
  zone: string;
  busy: boolean;
  onUse(zone: string): void;
}

/** The one-click offer: the question and the button that saves the zone. */
export function BrowserTimeZoneOffer({ zone, busy, onUse }: OfferProps) {
  const label = timeZoneLabel(zone);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-brand-900" data-browser-time-zone={zone}>
      <p className="min-w-0 flex-1 basis-56">
        Your browser is in <span className="font-semibold">{label}</span> — use it?
      </p>
      <button
        type="button"
        onClick={() => onUse(zone)}
        disabled={busy}
        className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:bg-slate-400"
      >
        {busy ? 'Saving…' : `Use ${label}`}
      </button>
    </div>
  );
}
