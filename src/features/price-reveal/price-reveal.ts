/**
 * The member price island: once the session store says a verified member (or admin) is signed in, fetch
 * /api/prices once and fill every price slot. Visitors keep the prompt, and the public HTML never changes
 * (PRODUCT.md "Deliberate differences" 1). Slots reserve their height, so filling them shifts nothing.
 */
import { $session, loadSession, type SessionState } from '../../stores/session';
import { fillPriceSlots, restorePrompts, type PriceSheet } from './fill';

let sheet: Promise<PriceSheet | undefined> | undefined;

async function fetchSheet(): Promise<PriceSheet | undefined> {
  const res = await fetch('/api/prices', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) return undefined;
  return (await res.json()) as PriceSheet;
}

const canSeePrices = (s: SessionState) => s.status === 'authenticated' && s.user?.emailVerified === true;

function onSession(state: SessionState) {
  if (!canSeePrices(state)) {
    if (state.status === 'anonymous') {
      sheet = undefined;
      restorePrompts(document);
    }
    return;
  }
  if (!document.querySelector('[data-price-slot]')) return;
  // One request per page view; a failed one is retried on the next session change, not in a loop.
  sheet ??= fetchSheet().catch(() => undefined);
  void sheet.then((loaded) => {
    if (!loaded) sheet = undefined;
    else if (canSeePrices($session.get())) fillPriceSlots(document, loaded);
  });
}

$session.subscribe(onSession);
void loadSession();
