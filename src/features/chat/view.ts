/**
 * The panel's pieces as DOM: one message (text only, sources as links), the quick replies and the contact
 * form. Pure builders: the panel decides when to show them.
 */
import type { ChatMessageDto, QuickReply } from '../../shared/chat';
import { el } from './dom';
import { safeHref, type ContactField, type ContactFields } from './rules';

const bubbleBase = 'max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-sm leading-relaxed';

/** One message. `body` is set as text, never parsed as markup. */
export function messageItem(message: Pick<ChatMessageDto, 'author' | 'authorName' | 'body' | 'sources'>, pending = false): HTMLLIElement {
  if (message.author === 'system') {
    return el('li', { class: 'mx-auto max-w-[90%] rounded-lg bg-slate-100 px-3 py-2 text-center text-xs leading-relaxed text-slate-700', 'data-chat-author': 'system' }, message.body);
  }
  const mine = message.author === 'visitor';
  const links = message.sources
    .map((s) => ({ title: s.title, href: safeHref(s.href) }))
    .filter((s): s is { title: string; href: string } => s.href !== undefined);
  return el(
    'li',
    { class: `flex flex-col gap-1 ${mine ? 'items-end' : 'items-start'}`, 'data-chat-author': message.author, 'aria-busy': pending ? 'true' : undefined },
    mine ? el('span', { class: 'sr-only' }, 'You said:') : el('span', { class: 'px-1 text-xs font-medium text-slate-600' }, message.authorName),
    el('p', { class: `${bubbleBase} ${mine ? 'rounded-br-md bg-(--chat-accent) text-white' : 'rounded-bl-md bg-slate-100 text-ink'}` }, message.body),
    links.length > 0 &&
      el(
        'div',
        { class: 'max-w-[85%] px-1 text-sm text-slate-700' },
        el('span', { class: 'text-xs font-medium' }, 'Read more'),
        el('ul', { class: 'flex flex-col' }, ...links.map((s) => el('li', {}, el('a', { href: s.href, class: 'inline-block py-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900' }, s.title)))),
      ),
  );
}

export function quickReplyList(replies: readonly QuickReply[], onMessage: (value: string) => void): HTMLElement | undefined {
  const items = replies.flatMap((reply) => {
    const cls = 'inline-flex min-h-9 items-center rounded-full border border-(--chat-accent) bg-white px-3 py-1 text-sm font-medium text-(--chat-accent) transition hover:bg-slate-50 motion-reduce:transition-none';
    if (reply.kind === 'link') {
      const href = safeHref(reply.value);
      return href ? [el('li', {}, el('a', { href, class: cls }, reply.label))] : [];
    }
    const button = el('button', { type: 'button', class: cls }, reply.label);
    button.addEventListener('click', () => onMessage(reply.value));
    return [el('li', {}, button)];
  });
  if (items.length === 0) return undefined;
  return el('ul', { class: 'flex flex-wrap gap-2 pt-1', 'aria-label': 'Suggestions', 'data-chat-quick-replies': true }, ...items);
}


export interface ContactForm {
  form: HTMLFormElement;
  values: () => ContactFields & { followUps: boolean };
  showErrors: (errors: Partial<Record<ContactField, string>>) => void;
  setBusy: (busy: boolean) => void;
  first: () => HTMLElement;
}

const inputCls =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-ink placeholder:text-slate-500 focus-visible:border-(--chat-accent) aria-[invalid=true]:border-red-600';

export function contactForm(onSubmit: () => void): ContactForm {
  const field = (name: ContactField, label: string, control: HTMLInputElement | HTMLTextAreaElement) => {
    const error = el('p', { id: `chat-contact-${name}-error`, class: 'mt-1 text-xs font-medium text-red-700', hidden: true });
    control.id = `chat-contact-${name}`;
    control.name = name;
    control.setAttribute('class', inputCls);
    return { control, error, wrap: el('div', {}, el('label', { for: control.id, class: 'text-sm font-medium text-ink' }, label), control, error) };
  };
  const name = field('name', 'Name', el('input', { type: 'text', autocomplete: 'name', maxlength: '100', required: true }));
  const email = field('email', 'Email', el('input', { type: 'email', autocomplete: 'email', maxlength: '254', required: true, inputmode: 'email' }));
  const message = field('message', 'Message (optional)', el('textarea', { rows: '2', maxlength: '1000' }));
  const fields = { name, email, message };
  // Unticked by default: the consent a follow-up sequence needs, given only by the visitor's own choice.
  const followUps = el('input', { type: 'checkbox', id: 'chat-contact-follow-ups', name: 'followUps', class: 'mt-0.5 size-4 shrink-0 accent-(--chat-accent)' });
  const followUpsWrap = el('label', { for: 'chat-contact-follow-ups', class: 'flex items-start gap-2 text-xs text-slate-700' }, followUps, el('span', {}, 'Email me follow-ups about this (unsubscribe any time)'));
  const submit = el('button', { type: 'submit', class: 'inline-flex min-h-10 w-full items-center justify-center rounded-lg bg-(--chat-accent) px-4 text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60' }, 'Send my details');
  const form = el(
    'form',
    { class: 'flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-3', novalidate: true, 'aria-labelledby': 'chat-contact-title', 'data-chat-contact': true },
    el('h3', { id: 'chat-contact-title', class: 'text-sm font-semibold text-ink' }, 'Leave your details'),
    el('p', { class: 'text-xs text-slate-600' }, 'A person will get back to you by email.'),
    name.wrap,
    email.wrap,
    message.wrap,
    followUpsWrap,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSubmit();
  });
  return {
    form,
    values: () => ({ name: name.control.value.trim(), email: email.control.value.trim(), message: message.control.value.trim(), followUps: followUps.checked }),
    showErrors(errors) {
      for (const [key, f] of Object.entries(fields) as [ContactField, typeof name][]) {
        const text = errors[key];
        f.error.textContent = text ?? '';
        f.error.hidden = !text;
        if (text) {
          f.control.setAttribute('aria-invalid', 'true');
          f.control.setAttribute('aria-describedby', f.error.id);
        } else {
          f.control.removeAttribute('aria-invalid');
          f.control.removeAttribute('aria-describedby');
        }
      }
    },
    setBusy(busy) {
      submit.disabled = busy;
      submit.textContent = busy ? 'Sending…' : 'Send my details';
    },
    first: () => (Object.values(fields).find((f) => f.control.getAttribute('aria-invalid') === 'true') ?? name).control,
  };
}
