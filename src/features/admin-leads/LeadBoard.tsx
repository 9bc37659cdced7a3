/**
 * The pipeline board on /admin/leads/board (issue 39): a column per stage with its count, a card per person
 * (name, business, website score, owner, next follow-up, latest activity), "Show more" per column. A card's
 * handle moves it to another stage: dragged with the mouse or a finger, or with the keyboard (Space picks
 * it up, ←/→ go from column to column, Space drops it, Escape cancels), each step announced. The move is
 * shown at once and saved through admin.leads.setStage (the same rule, activity entry and timeline as the
 * person page's stage); refused, the card goes back and the board says why.
 */
import {
  closestCorners,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { actions } from 'astro:actions';
import { useRef, useState, type ReactNode } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { DragHandle } from '../../components/admin/DragHandle';
import { formatInZone } from '../../shared/dates';
import { BOARD_CARDS_PER_PAGE, type BoardCard, type BoardColumn, type BoardFilters } from '../../shared/lead-board';
import { followUpLabel } from '../../shared/lead-people';
import { scoreBadgeClass } from '../../shared/lead-profile';
import { isLeadStage, LEAD_STAGE_LABELS, leadStageBadgeClass, type LeadStage } from '../../shared/schemas/lead-work';

interface Props {
  columns: BoardColumn[];
  filters: BoardFilters;
  /** Today's day key in the site's time zone (for "Due today", "Overdue since …"). */
  today: string;
  timeZone: string;
}

/** ←/→ move a picked-up card to the column beside the one it is over (↑/↓ do nothing: a column has no order). */
const columnByColumn: KeyboardCoordinateGetter = (event, { context: { active, collisionRect, droppableRects, droppableContainers, over } }) => {
  if (event.code !== 'ArrowLeft' && event.code !== 'ArrowRight') return undefined;
  event.preventDefault();
  if (!active || !collisionRect) return undefined;
  const columns = droppableContainers
    .getEnabled()
    .flatMap((c) => {
      const rect = droppableRects.get(c.id);
      return rect ? [{ id: c.id, rect }] : [];
    })
    .sort((a, b) => a.rect.left - b.rect.left);
  const here = columns.findIndex((c) => c.id === over?.id);
  const next = columns[(here === -1 ? 0 : here) + (event.code === 'ArrowRight' ? 1 : -1)];
  return next ? { x: next.rect.left + 8, y: next.rect.top + 8 } : undefined;
};

/** The pointer's column when it is over one; else the column nearest the card (the keyboard has no pointer). */
const columnUnder: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length > 0 ? hits : closestCorners(args);
};

export default function LeadBoard({ columns: initial, filters, today, timeZone }: Props) {
  const [columns, setColumns] = useState(initial);
  const [dragged, setDragged] = useState<BoardCard>();
  const [status, setStatus] = useState<{ tone: 'error' | 'info'; text: string }>();
  const [loading, setLoading] = useState<LeadStage>();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnByColumn }),
  );

  const cardOf = (email: string | number) => columns.flatMap((c) => c.cards).find((card) => card.email === email);
  const stageOf = (email: string | number) => columns.find((c) => c.cards.some((card) => card.email === email))?.stage;
  const nameOf = (email: string | number) => {
    const card = cardOf(email);
    return card ? card.name || card.email : String(email);
  };
  const columnName = (id: string | number | undefined) => (isLeadStage(id) ? LEAD_STAGE_LABELS[id] : 'no column');

  // dnd-kit reports the card over its own column right after the pick-up: saying so then would replace
  // "Picked up …" before a screen reader reads it. Once it has left its column, every column is told.
  const leftItsColumn = useRef(false);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      leftItsColumn.current = false;
      return `Picked up ${nameOf(active.id)}, in ${columnName(stageOf(active.id))}. Left and right arrows move between stages.`;
    },
    onDragOver: ({ active, over }) => {
      if (over?.id === stageOf(active.id) && !leftItsColumn.current) return undefined;
      leftItsColumn.current = true;
      return over ? `${nameOf(active.id)} is over ${columnName(over.id)}.` : `${nameOf(active.id)} is over no stage.`;
    },
    onDragEnd: ({ active, over }) =>
      over && over.id !== stageOf(active.id) ? `${nameOf(active.id)} moved to ${columnName(over.id)}.` : `${nameOf(active.id)} stays in ${columnName(stageOf(active.id))}.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled: it stays in ${columnName(stageOf(active.id))}.`,
  };

  /** Moves a card between columns on screen (its count too), newest activity first in its new column. */
  function place(email: string, from: LeadStage, to: LeadStage) {
    setColumns((current) => {
      const card = current.find((c) => c.stage === from)?.cards.find((c) => c.email === email);
      if (!card) return current;
      return current.map((column) => {
        if (column.stage === from) return { ...column, total: column.total - 1, cards: column.cards.filter((c) => c.email !== email) };
        if (column.stage === to) return { ...column, total: column.total + 1, cards: [...column.cards, card].sort((a, b) => b.lastAt.localeCompare(a.lastAt)) };
        return column;
      });
    });
  }

  async function onDragEnd({ active, over }: DragEndEvent) {
    setDragged(undefined);
    const from = stageOf(active.id);
    const to = over?.id;
    if (!from || !isLeadStage(to) || to === from) return;
    const email = String(active.id);
    const name = nameOf(email);
    place(email, from, to);
    setStatus(undefined);
    const outcome = await callAction(() => actions.admin.leads.setStage({ email, stage: to }), { retryForMs: IDEMPOTENT_RETRY_MS });
    if (outcome.ok) return setStatus({ tone: 'info', text: `${name}: ${LEAD_STAGE_LABELS[to]}. Saved.` });
    place(email, to, from);
    setStatus({ tone: 'error', text: `${name} was not moved: ${outcome.message}` });
  }

  async function showMore(column: BoardColumn) {
    setLoading(column.stage);
    const query = { q: filters.q, kind: filters.kind, owner: filters.owner, ...(filters.due ? { due: '1' } : {}) };
    const outcome = await callAction<BoardColumn>(() => actions.admin.leads.boardColumn({ stage: column.stage, offset: column.cards.length, filters: query }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setLoading(undefined);
    if (!outcome.ok) return setStatus({ tone: 'error', text: outcome.message });
    setColumns((current) =>
      current.map((c) => {
        if (c.stage !== column.stage) return c;
        const known = new Set(c.cards.map((card) => card.email));
        return { ...c, total: outcome.data.total, cards: [...c.cards, ...outcome.data.cards.filter((card) => !known.has(card.email))] };
      }),
    );
  }

  return (
    <div data-lead-board>
      <p role="status" aria-live="polite" className={status?.tone === 'error' ? 'mb-3 text-sm font-medium text-red-700' : 'mb-3 text-sm text-slate-600'} data-board-status>
        {status?.text}
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={columnUnder}
        onDragStart={({ active }: DragStartEvent) => setDragged(cardOf(active.id))}
        onDragEnd={(e) => void onDragEnd(e)}
        onDragCancel={() => setDragged(undefined)}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: 'To move a person to another stage, press Space or Enter. Use the left and right arrow keys to go from stage to stage, Space or Enter to drop, Escape to cancel.' },
        }}
      >
        {/* On a phone the board scrolls sideways a column at a time; `relative` keeps its screen-reader texts (absolutely placed) inside it, not widening the page. */}
        <div className="relative -mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-4 sm:mx-0 sm:px-0" data-board-columns>
          {columns.map((column) => (
            <Column
              key={column.stage}
              column={column}
              more={
                column.cards.length < column.total && (
                <button
                  type="button"
                  onClick={() => void showMore(column)}
                  disabled={loading === column.stage}
                  className="mt-1 inline-flex h-10 w-full items-center justify-center rounded-lg border border-slate-300 bg-white text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60"
                >
                  {loading === column.stage ? 'Loading…' : `Show ${Math.min(BOARD_CARDS_PER_PAGE, column.total - column.cards.length)} more`}
                  <span className="sr-only"> in {LEAD_STAGE_LABELS[column.stage]}</span>
                </button>
                )
              }
            >
              {column.cards.map((card) => (
                <Card key={card.email} card={card} today={today} timeZone={timeZone} />
              ))}
            </Column>
          ))}
        </div>
        <DragOverlay>{dragged ? <CardBody card={dragged} today={today} timeZone={timeZone} lifted /> : null}</DragOverlay>
      </DndContext>
    </div>
  );
}

function Column({ column, more, children }: { column: BoardColumn; more: ReactNode; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: column.stage });
  const headingId = `board-column-${column.stage}`;
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      className={`flex w-[82vw] max-w-80 shrink-0 snap-start flex-col rounded-2xl border p-3 sm:w-72 ${isOver ? 'border-brand-400 bg-brand-50/60' : 'border-slate-200 bg-slate-50'}`}
      data-board-column={column.stage}
    >
      <h2 id={headingId} className="flex items-center justify-between gap-2 px-1 pb-2 text-sm font-semibold text-ink">
        <span className={leadStageBadgeClass(column.stage)}>{LEAD_STAGE_LABELS[column.stage]}</span>
        <span className="tabular-nums text-slate-600" data-board-count>
          {column.total.toLocaleString('en-US')}
          <span className="sr-only"> {column.total === 1 ? 'person' : 'people'}</span>
        </span>
      </h2>
      <ol className="grid grid-cols-1 gap-2">{children}</ol>
      {more}
      {column.total === 0 && <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">Nobody at this stage.</p>}
    </section>
  );
}

function Card({ card, today, timeZone }: { card: BoardCard; today: string; timeZone: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({ id: card.email });
  const name = card.name || card.email;
  return (
    <li ref={setNodeRef} className={isDragging ? 'opacity-40' : undefined} data-board-card={card.email}>
      <CardBody
        card={card}
        today={today}
        timeZone={timeZone}
        handle={<DragHandle ref={setActivatorNodeRef} {...attributes} {...listeners} label={name} />}
      />
    </li>
  );
}

function CardBody({ card, today, timeZone, handle, lifted }: { card: BoardCard; today: string; timeZone: string; handle?: ReactNode; lifted?: boolean }) {
  return (
    <div className={`flex gap-1 rounded-xl border border-slate-200 bg-white p-2 text-sm ${lifted ? 'shadow-lg ring-2 ring-brand-300' : 'shadow-sm'}`}>
      {handle}
      <div className="min-w-0 flex-1 py-1 pr-1">
        <a href={`/admin/leads/${card.key}`} className="block truncate font-semibold text-brand-700 hover:underline" title={card.name ? `${card.name} · ${card.email}` : card.email}>
          <bdi>{card.name || card.email}</bdi>
        </a>
        {card.businessName && (
          <p className="truncate text-ink" data-card-business>
            <bdi>{card.businessName}</bdi>
          </p>
        )}
        <p className="mt-1 flex flex-wrap items-center gap-1">
          {card.score !== null && (
            <span className={scoreBadgeClass(card.score)} data-card-score={card.score}>
              {card.score}/100<span className="sr-only"> website score</span>
            </span>
          )}
          {card.followUpOn && (
            <span className={card.followUpOn <= today ? 'font-medium text-amber-800' : 'text-slate-600'} data-card-follow-up>
              {followUpLabel(card.followUpOn, today)}
            </span>
          )}
        </p>
        <p className="mt-1 text-xs text-slate-600">
          {card.ownerName ? <>Owner: {card.ownerName}</> : 'Nobody owns them'} · <time dateTime={card.lastAt}>{formatInZone(card.lastAt, timeZone, 'date')}</time>
        </p>
      </div>
    </div>
  );
}
