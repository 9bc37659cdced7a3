/**
 * The chat inbox's list (/admin/chat-settings). Rendered on the server with the rows of the URL's filter and page
 * (plain links: it works without script); once loaded it follows the live feed — a new visitor message
 * brings its conversation to the top with its unread count, a handled one leaves the open list, the count of
 * conversations follows the feed's counts — and says new messages in a polite live region.
 */
import { useRef, useState } from 'react';
import type { InboxConversationDto } from '../../shared/chat';
import { applyInboxChange, inboxAnnouncement, inboxSummary, inboxTotalOf, type InboxQuery } from '../../shared/chat-inbox';
import { formatInZone } from '../../shared/dates';
import { FEED_MODE_LABELS, useInboxFeed } from './inbox-stream';

interface Props {
  rows: InboxConversationDto[];
  query: InboxQuery;
  perPage: number;
  /** Unread messages across every conversation, when the page was rendered. */
  unreadTotal: number;
  /** Conversations of the filter, when the page was rendered: the summary ("3 open conversations · page 1 of 2") follows the feed's counts. */
  total: number;
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

export const conversationHref = (id: string) => `/admin/chat-settings/${encodeURIComponent(id)}`;

export default function InboxList({ rows: initialRows, query, perPage, unreadTotal, total: initialTotal, timeZone }: Props) {
  const [rows, setRows] = useState(initialRows);
  const [total, setTotal] = useState(initialTotal);
  const [announcement, setAnnouncement] = useState('');
  const [unread, setUnread] = useState(unreadTotal);
  // The last unread count seen of each conversation, to keep the total right as counts change.
  const known = useRef(new Map(initialRows.map((r) => [r.id, r] as const)));

  const mode = useInboxFeed({
    onConversation(changed) {
      const before = known.current.get(changed.id);
      known.current.set(changed.id, changed);
      setUnread((n) => Math.max(0, n + changed.unread - (before?.unread ?? 0)));
      setRows((current) => applyInboxChange(current, changed, { ...query, perPage }));
      const said = inboxAnnouncement(before, changed);
      if (said) setAnnouncement(said);
    },
    onSignals(counts) {
      setTotal(inboxTotalOf(counts, query.status));
    },
  });

  return (
    <div data-inbox>
      <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <p className="text-slate-600" data-inbox-count={total}>
          {inboxSummary(total, { ...query, perPage })}
        </p>
        <p className="font-medium text-slate-700" data-unread-total={unread}>
          {unread === 0 ? 'Nothing unread' : `${unread} unread ${unread === 1 ? 'message' : 'messages'}`}
        </p>
        <p className="flex items-center gap-1.5 text-xs text-slate-600" data-feed={mode}>
          <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${mode === 'live' ? 'bg-green-600' : mode === 'polling' ? 'bg-amber-500' : 'bg-slate-400'}`} />
          {FEED_MODE_LABELS[mode]}
        </p>
      </div>
      {rows.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center" data-empty-state>
          <p className="font-semibold text-ink">{query.status === 'handled' ? 'No handled conversations.' : query.status === 'open' ? 'No open conversations.' : 'No conversations yet.'}</p>
          <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
            {query.status === 'handled'
              ? 'Conversations you mark handled are kept here.'
              : 'When a visitor writes in the chat, the conversation appears here at once, with its unread messages.'}
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm" aria-label="Conversations, most recent first">
          {rows.map((r) => (
            <li key={r.id} data-conversation-row={r.id} className={r.unread > 0 ? 'border-l-4 border-l-brand-600' : 'border-l-4 border-l-transparent'}>
              <a href={conversationHref(r.id)} className="block px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  {/* The visitor's words (bidi controls already removed by the server): isolated from the row around them. */}
                  <bdi className={`min-w-0 break-words text-brand-700 ${r.unread > 0 ? 'font-bold' : 'font-semibold'}`} data-display-name>
                    {r.displayName}
                  </bdi>
                  {r.contactEmail && (
                    <span className="max-w-64 min-w-0 truncate text-sm text-slate-600" title={r.contactEmail}>
                      {r.contactEmail}
                    </span>
                  )}
                  <time dateTime={r.lastMessageAt} className="ml-auto text-xs whitespace-nowrap text-slate-600">
                    {formatInZone(r.lastMessageAt, timeZone, 'day-time')}
                  </time>
                </div>
                {/* The visitor's last words (the server picks them: never the assistant's answer or a thank-you). */}
                {r.preview ? (
                  <p dir="auto" className={`mt-1 line-clamp-2 text-sm break-words ${r.unread > 0 ? 'text-ink' : 'text-slate-600'}`} data-preview>
                    {r.preview}
                  </p>
                ) : (
                  <p className="mt-1 text-sm text-slate-600 italic" data-preview>
                    {r.contactEmail ? 'Left their contact details' : 'No message yet'}
                  </p>
                )}
                {(r.unread > 0 || r.takenOverBy || (query.status === 'all' && r.status === 'handled')) && (
                  <p className="mt-1.5 flex flex-wrap gap-1.5 text-xs font-semibold">
                    {r.unread > 0 && (
                      <span className="rounded-full bg-brand-600 px-2 py-0.5 text-white" data-unread={r.unread}>
                        {r.unread} unread
                      </span>
                    )}
                    {r.takenOverBy && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-amber-900">Answered by {r.takenOverBy}</span>}
                    {query.status === 'all' && r.status === 'handled' && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">Handled</span>}
                  </p>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite" className="sr-only" data-inbox-announcement>
        {announcement}
      </div>
    </div>
  );
}
