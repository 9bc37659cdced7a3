/**
 * One anonymous page view per page load (decision 014), from every public page (src/layouts/Site.astro):
 * the path, the referrer, the utm_* values and the viewport width, posted once the page is idle so it
 * never competes with the page itself. No cookie, no storage, nothing that names the visitor; the server
 * (POST /api/visits) counts it per day. The body's short names are visitBeaconSchema's
 * (src/shared/analytics.ts), and the lengths are cut to what it accepts. Kept tiny: it ships on every page.
 */
const params = new URLSearchParams(location.search);
const utm = (name: string) => params.get(`utm_${name}`)?.slice(0, 100) || undefined;

let sent = false;

function send() {
  if (sent) return;
  sent = true;
  const body = JSON.stringify({
    p: location.pathname,
    r: document.referrer.slice(0, 1024),
    s: utm('source'),
    m: utm('medium'),
    c: utm('campaign'),
    w: Math.min(Math.round(innerWidth), 10_000),
  });
  // A beacon (text/plain: no preflight) outlives the page; fetch with keepalive where there is none.
  if (!navigator.sendBeacon?.('/api/visits', body)) fetch('/api/visits', { method: 'POST', body, keepalive: true }).catch(() => {});
}

const later = () => (self.requestIdleCallback ?? setTimeout)(send);
if (document.readyState === 'complete') later();
else addEventListener('load', later, { once: true });
// A visitor who leaves before the page is idle still viewed it: the beacon goes as the page is left.
addEventListener('pagehide', send);
// Back or forward to a page kept in the back/forward cache runs no script again, yet it is a view.
addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  sent = false;
  later();
});
