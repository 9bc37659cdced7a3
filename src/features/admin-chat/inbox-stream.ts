/**
 * The admin islands' hook on the page's live feed (src/components/admin/live-feed.ts: one connection per
 * page, shared with the layout's title and badges): each change of a conversation, each new message, the
 * counts; returns the feed's mode for the "Live" indicator.
 */
import { useEffect, useRef, useState } from 'react';
import { listenToAdminFeed, type FeedListener, type FeedMode } from '../../components/admin/live-feed';

export { FEED_MODE_LABELS, type FeedMode, type InboxMessageEvent } from '../../components/admin/live-feed';

export type InboxHandlers = Omit<FeedListener, 'onMode' | 'onAlert'>;

export function useInboxFeed(handlers: InboxHandlers): FeedMode {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [mode, setMode] = useState<FeedMode>('connecting');

  useEffect(
    () =>
      listenToAdminFeed({
        onMode: setMode,
        onConversation: (c) => latest.current.onConversation?.(c),
        onMessage: (m) => latest.current.onMessage?.(m),
        onSignals: (s) => latest.current.onSignals?.(s),
      }),
    [],
  );

  return mode;
}
