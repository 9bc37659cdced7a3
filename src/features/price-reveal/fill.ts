/**
 * Fills the price slots (components/ui/PriceSlot.astro) from the member price sheet. DOM-only and pure
 * apart from the elements it is given, so it is unit-testable and holds no state of its own.
 */
import { formatMoney } from '../../shared/money';

export interface PriceSheet {
  currency: string;
  services: Record<string, { price: number | null } | undefined>;
  packages: Record<string, { priceSetup: number | null; priceMonthly: number | null } | undefined>;
}

export const ON_REQUEST = 'Price on request';

interface Figure {
  label: string;
  amount: number | null;
  suffix?: string;
}

function figuresFor(slot: HTMLElement, sheet: PriceSheet): Figure[] | undefined {
  const id = slot.dataset.priceId ?? '';
  if (slot.dataset.priceKind === 'service') {
    const entry = sheet.services[id];
    return entry && [{ label: 'Price', amount: entry.price }];
  }
  if (slot.dataset.priceKind === 'package') {
    const entry = sheet.packages[id];
    return (
      entry && [
        { label: 'Setup', amount: entry.priceSetup },
        { label: 'Monthly', amount: entry.priceMonthly, suffix: '/mo' },
      ]
    );
  }
  return undefined;
}

/** A small definition list: the label on top, the amount below — two lines that fit the slot's min height. */
function render(doc: Document, figures: Figure[], currency: string, detail: boolean): HTMLElement {
  const list = doc.createElement('dl');
  list.className = 'flex flex-wrap gap-x-6 gap-y-1';
  list.dataset.priceValue = '';
  for (const f of figures) {
    const item = doc.createElement('div');
    const label = doc.createElement('dt');
    label.className = detail ? 'text-sm font-medium text-slate-500' : 'text-xs font-medium uppercase tracking-wide text-slate-500';
    label.textContent = f.label;
    const value = doc.createElement('dd');
    value.className = detail ? 'text-2xl font-bold text-slate-900' : 'text-lg font-bold text-slate-900';
    if (f.amount === null) {
      value.textContent = ON_REQUEST;
      value.classList.replace(detail ? 'text-2xl' : 'text-lg', detail ? 'text-lg' : 'text-base');
    } else {
      value.textContent = formatMoney(f.amount, currency);
      if (f.suffix) {
        // Screen readers hear "per month", not "slash m o".
        const suffix = doc.createElement('span');
        suffix.className = 'text-sm font-medium text-slate-500';
        suffix.setAttribute('aria-hidden', 'true');
        suffix.textContent = f.suffix;
        const spoken = doc.createElement('span');
        spoken.className = 'sr-only';
        spoken.textContent = ' per month';
        value.append(suffix, spoken);
      }
    }
    item.append(label, value);
    list.append(item);
  }
  return list;
}

const prompts = new WeakMap<HTMLElement, Node[]>();

/** Replaces each slot's prompt with its prices. Slots for ids the sheet lacks keep the prompt. */
export function fillPriceSlots(root: ParentNode, sheet: PriceSheet): number {
  let filled = 0;
  for (const slot of root.querySelectorAll<HTMLElement>('[data-price-slot]')) {
    const figures = figuresFor(slot, sheet);
    if (!figures) continue;
    if (!prompts.has(slot)) prompts.set(slot, [...slot.childNodes]);
    const detail = slot.classList.contains('min-h-16');
    slot.replaceChildren(render(slot.ownerDocument, figures, sheet.currency, detail));
    slot.dataset.priceState = 'revealed';
    filled += 1;
  }
  return filled;
}

/** After sign-out the prompt comes back (the page is not reloaded). */
export function restorePrompts(root: ParentNode): void {
  for (const slot of root.querySelectorAll<HTMLElement>('[data-price-slot][data-price-state="revealed"]')) {
    const original = prompts.get(slot);
    if (original) slot.replaceChildren(...original);
    delete slot.dataset.priceState;
  }
}
