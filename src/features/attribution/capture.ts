/**
 * Runs on every public page (src/layouts/Site.astro): records where the visit came from, fills the lead
 * forms' hidden attribution inputs (so a form posted before its island hydrates still carries them), and
 * reports each "Book a call" click (`a[data-book-call]`, which opens the booking site in a new tab) as a
 * lead event, the visit's UTM values going along on the link (tagBookingLink). No cookie, nothing sent on
 * page load.
 */
import { captureAttribution, fillAttributionInputs, readAttribution, tagBookingLink } from './store';

captureAttribution(location, document.referrer, location.host);
fillAttributionInputs(document, readAttribution());

function onClick(event: MouseEvent) {
  // Left click, Enter on the focused link, and middle click (auxclick): every way the link opens.
  if (event.type === 'auxclick' && event.button !== 1) return;
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-book-call]') : null;
  if (!link) return;
  const attribution = readAttribution();
  // Before the browser follows it (the default action comes after this listener).
  tagBookingLink(link, attribution);
  try {
    // A beacon outlives the page and never delays the new tab; text/plain keeps it a simple request.
    navigator.sendBeacon('/api/lead-events', JSON.stringify({ kind: 'book-call', page: location.pathname, attribution }));
  } catch {
    // No beacon support or a blocked request: the visitor still gets to the booking page.
  }
}

document.addEventListener('click', onClick);
document.addEventListener('auxclick', onClick);
