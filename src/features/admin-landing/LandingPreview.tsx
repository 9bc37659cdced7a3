/**
 * The live preview of the landing page with an unsaved layout: the real page, rendered by the server for
 * this admin (`/?preview&layout=…`, private, never cached), in a frame scaled to fit, at desktop or phone
 * width. It keeps its scroll position as the layout changes; links open in a new tab instead of moving the
 * frame away from the landing page.
 */
import { useEffect, useRef, useState } from 'react';
import { LAYOUT_PARAM, layoutParam, type LandingBlock } from '../../shared/landing';

/** The page widths the preview renders at; the height is the frame's, at that scale. */
const VIEWPORTS = {
  desktop: { width: 1280, label: 'Desktop' },
  phone: { width: 390, label: 'Phone' },
} as const;
type Device = keyof typeof VIEWPORTS;

/** The preview address of a layout (the page itself decides that only an admin gets it). */
export const previewSrc = (blocks: readonly LandingBlock[]) => `/?preview&${LAYOUT_PARAM}=${encodeURIComponent(layoutParam(blocks))}`;

export function LandingPreview({ blocks }: { blocks: readonly LandingBlock[] }) {
  const wanted = previewSrc(blocks);
  const [src, setSrc] = useState(wanted);
  const [loading, setLoading] = useState(true);
  const [device, setDevice] = useState<Device>('desktop');
  // Measured in the browser: the frame is sized (and loaded) only once the island runs, so the server's
  // HTML carries no inline style (the CSP forbids them) and no load event is missed before hydration.
  const [size, setSize] = useState({ width: 0, height: 0 });
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const scrollY = useRef(0);

  // Follow the layout after a pause in the changes (each one reloads the page), keeping the scroll position.
  useEffect(() => {
    if (wanted === src) return;
    const timer = setTimeout(() => {
      scrollY.current = frame.current?.contentWindow?.scrollY ?? 0;
      setLoading(true);
      setSrc(wanted);
    }, 250);
    return () => clearTimeout(timer);
  }, [wanted, src]);

  // On a phone, preview at phone width first.
  useEffect(() => {
    if (window.matchMedia('(max-width: 767px)').matches) setDevice('phone');
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setSize({ width: entry!.contentRect.width, height: entry!.contentRect.height }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const onLoad = () => {
    setLoading(false);
    const win = frame.current?.contentWindow;
    const doc = frame.current?.contentDocument;
    if (!win || !doc) return;
    win.scrollTo(0, scrollY.current);
    doc.addEventListener(
      'click',
      (e) => {
        const link = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
        if (!link || link.getAttribute('href')?.startsWith('#')) return;
        e.preventDefault();
        window.open(link.href, '_blank', 'noopener');
      },
      true,
    );
  };

  const viewport = VIEWPORTS[device];
  const scale = size.width > 0 ? Math.min(1, size.width / viewport.width) : 1;
  const frameHeight = Math.round(size.height / scale);

  return (
    <section aria-labelledby="landing-preview-title" className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h2 id="landing-preview-title" className="mr-auto text-base font-semibold text-ink">
          Live preview
        </h2>
        <div role="group" aria-label="Preview width" className="inline-flex rounded-lg border border-slate-300 p-0.5">
          {(Object.keys(VIEWPORTS) as Device[]).map((d) => (
            <button
              key={d}
              type="button"
              aria-pressed={device === d}
              onClick={() => setDevice(d)}
              className={`h-8 rounded-md px-3 text-sm font-medium ${device === d ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              {VIEWPORTS[d].label}
            </button>
          ))}
        </div>
        <a href={src} target="_blank" rel="noopener" className="text-sm font-medium text-brand-700 underline underline-offset-2">
          Open in a new tab<span className="sr-only"> (the preview)</span>
        </a>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        The landing page as it will look with the layout you are editing, before you save. Only you see it.{' '}
        <span aria-hidden={!loading} className={loading ? 'font-medium text-slate-800' : 'invisible'}>
          Updating…
        </span>
      </p>
      <div ref={box} className="mt-4 h-[min(75vh,52rem)] min-h-96 w-full">
        {size.width > 0 && (
          <div
            className="relative mx-auto overflow-hidden rounded-xl border border-slate-300 bg-slate-100 shadow-inner"
            style={{ width: viewport.width * scale, height: size.height }}
            aria-busy={loading}
          >
            <iframe
              ref={frame}
              src={src}
              title="Live preview of the landing page"
              onLoad={onLoad}
              data-landing-preview
              className={`origin-top-left border-0 bg-white transition-opacity ${loading ? 'opacity-60' : 'opacity-100'}`}
              style={{ width: viewport.width, height: frameHeight, transform: `scale(${scale})` }}
            />
          </div>
        )}
      </div>
    </section>
  );
}
