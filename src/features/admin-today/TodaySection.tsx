/**
 * The overview's Today (issue 35): requests waiting for a report, unanswered chats, follow-ups due and
 * reports opened without a reply, each a short list with its rule, its all-clear and a link to the whole
 * list. Rendered on the server with the page; once loaded it follows the admin live feed — when the counts
 * or a conversation change (a new chat, a new request, a report sent), and when the tab comes back to the
 * front, it reads the lists again (GET /api/admin/today), a few changes in a row read once.
 */
import { useEffect, useRef, useState } from 'react';
import { listenToAdminFeed } from '../../components/admin/live-feed';
import { moreLabel, TODAY_SECTIONS, TODAY_TEXTS, type TodaySection, type TodayView } from '../../shared/today';

/** Changes closer together than this are read once. */
const SETTLE_MS = 400;

function useLiveToday(initial: TodayView): TodayView {
  const [view, setView] = useState(initial);
  const state = useRef({ timer: undefined as ReturnType<typeof setTimeout> | undefined, reading: false, again: false });

  useEffect(() => {
    let stopped = false;
    const s = state.current;
    const read = async () => {
      if (s.reading) {
        s.again = true;
        return;
      }
      s.reading = true;
      try {
        const res = await fetch('/api/admin/today', { headers: { accept: 'application/json' } });
        if (res.ok && !stopped) setView((await res.json()) as TodayView);
      } catch {
        // Offline for a moment: the next change or the tab's return reads again.
      } finally {
        s.reading = false;
        if (s.again && !stopped) {
          s.again = false;
          void read();
        }
      }
    };
    const soon = () => {
      clearTimeout(s.timer);
      s.timer = setTimeout(() => void read(), SETTLE_MS);
    };
    const onVisible = () => document.visibilityState === 'visible' && soon();
    document.addEventListener('visibilitychange', onVisible);
    const stop = listenToAdminFeed({ onSignals: soon, onConversation: soon });
    return () => {
      stopped = true;
      clearTimeout(s.timer);
      document.removeEventListener('visibilitychange', onVisible);
      stop();
    };
  }, []);
  return view;
}

function List({ section }: { section: TodaySection }) {
  const texts = TODAY_TEXTS[section.key];
  const id = `today-${section.key}`;
  const more = moreLabel(section);
  return (
    <section aria-labelledby={id} className="min-w-0" data-today-section={section.key} data-total={section.total}>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <h3 id={id} className="text-sm font-semibold text-ink">
          {texts.title}
        </h3>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${section.total > 0 ? 'bg-brand-50 text-brand-800' : 'bg-slate-100 text-slate-700'}`} data-today-count>
          {section.total}
        </span>
      </div>
      <p className="mt-0.5 text-xs text-slate-600">{texts.rule}</p>
      {section.items.length === 0 ? (
        <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700" data-today-empty>
          {texts.empty}
        </p>
      ) : (
        <ul className="mt-1 divide-y divide-slate-100">
          {section.items.map((item) => (
            <li key={item.key} className="py-2" data-today-item={item.key}>
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                <a href={item.href} className="min-w-0 font-semibold break-words text-brand-700 hover:underline">
                  <bdi>{item.name}</bdi>
                </a>
                {item.badges.map((b) => (
                  <span key={b.label} className={b.className}>
                    {b.label}
                  </span>
                ))}
              </div>
              {item.detail && (
                <p dir="auto" className="mt-0.5 line-clamp-2 text-sm break-words text-slate-700">
                  {item.detail}
                </p>
              )}
              <p className={`mt-0.5 text-xs ${item.when.overdue ? 'font-semibold text-amber-800' : 'text-slate-600'}`}>
                <time dateTime={item.when.at}>{item.when.label}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
      {section.total > 0 && (
        <a href={section.moreHref} className="mt-1 inline-flex min-h-9 items-center text-sm font-medium text-brand-700 hover:underline" data-today-more>
          {more ? `${more}: ${texts.more.toLowerCase()}` : texts.more}
        </a>
      )}
    </section>
  );
}

export default function TodaySection({ today }: { today: TodayView }) {
  const view = useLiveToday(today);
  return (
    <section aria-labelledby="overview-today" className="mb-8 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" data-today>
      <h2 id="overview-today" className="text-base font-semibold text-ink">
        Today
      </h2>
      <p className="mt-0.5 text-sm text-slate-600">What waits for you now. It updates by itself while this page is open.</p>
      <div className="mt-4 grid gap-x-8 gap-y-6 md:grid-cols-2">
        {TODAY_SECTIONS.map((key) => (
          <List key={key} section={view[key]} />
        ))}
      </div>
    </section>
  );
}
