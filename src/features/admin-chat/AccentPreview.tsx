/**
 * The chat widget as visitors will see it with these settings: the launcher and an open panel with the
 * greeting, a quick reply and a visitor's message in the accent colour. Drawn here (not the widget's own
 * code, which admin pages do not load), to the same measures, so the admin judges the colour before saving.
 * The colour is set through the CSSOM (a custom property), not a style attribute: the page's content security
 * policy blocks inline style attributes.
 */
import { useEffect, useRef } from 'react';
import type { QuickReply } from '../../shared/chat';

interface Props {
  assistantName: string;
  greeting: string;
  /** A valid #rrggbb, or the last valid one while the admin is typing. */
  accent: string;
  quickReplies: readonly QuickReply[];
  enabled: boolean;
}

export function AccentPreview({ assistantName, greeting, accent, quickReplies, enabled }: Props) {
  const firstReply = quickReplies.find((q) => q.label.trim())?.label;
  const frame = useRef<HTMLElement>(null);
  useEffect(() => frame.current?.style.setProperty('--chat-accent', accent), [accent]);
  return (
    <figure ref={frame} className="min-w-0 rounded-xl [--chat-accent:#4338ca] border border-slate-200 bg-slate-100 p-3 sm:p-4" data-chat-preview>
      <figcaption className="mb-3 text-xs font-semibold tracking-wide text-slate-600 uppercase">Preview{enabled ? '' : ' (the chat is off: visitors see nothing)'}</figcaption>
      <div className={`mx-auto max-w-xs ${enabled ? '' : 'opacity-50'}`} aria-hidden="true">
        <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-md">
          <div className="flex items-center gap-2 bg-(--chat-accent) px-3 py-2.5 text-sm font-semibold text-white">
            <span className="inline-block h-2 w-2 rounded-full bg-white/90" />
            <span className="truncate">{assistantName.trim() || 'Assistant'}</span>
          </div>
          <div className="space-y-2 p-3 text-sm">
            <p className="max-w-[85%] rounded-2xl rounded-tl-sm bg-slate-100 px-3 py-2 break-words whitespace-pre-wrap text-ink">{greeting.trim() || '…'}</p>
            {firstReply && (
              <p>
                <span className="inline-block max-w-full truncate rounded-full border border-(--chat-accent) px-3 py-1 text-xs font-medium text-(--chat-accent)">
                  {firstReply}
                </span>
              </p>
            )}
            <p className="ml-auto w-fit max-w-[85%] rounded-2xl rounded-tr-sm bg-(--chat-accent) px-3 py-2 text-white">
              Can you help with missed calls?
            </p>
          </div>
        </div>
        <div className="mt-3 flex justify-end">
          <span className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-(--chat-accent) text-white shadow-lg">
            <svg viewBox="0 0 24 24" className="h-7 w-7 fill-current">
              <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-4.5 3.6A.9.9 0 0 1 3 20.9V6a2 2 0 0 1 1-2Z" />
            </svg>
          </span>
        </div>
      </div>
    </figure>
  );
}
