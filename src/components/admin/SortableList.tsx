/**
 * A list the admin reorders by dragging (mouse, touch) or by keyboard: focus an item's handle, Space to
 * pick it up, arrow keys to move, Space to drop, Escape to cancel; each step is announced to screen
 * readers. dnd-kit does the work; this gives every admin list the same handle, labels and wording.
 */
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useRef, type ReactNode } from 'react';
import { DragHandle } from './DragHandle';

export interface SortableListProps<T> {
  items: readonly T[];
  idOf(item: T): string;
  /** The item's name in announcements ("Lead outreach"). */
  labelOf(item: T): string;
  onReorder(next: T[]): void;
  renderItem(item: T, handle: ReactNode, index: number): ReactNode;
  /** A name for the list in announcements ("services"). */
  listLabel: string;
  disabled?: boolean;
}

export function SortableList<T>({ items, idOf, labelOf, onReorder, renderItem, listLabel, disabled }: SortableListProps<T>) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map(idOf);
  const nameOf = (id: string | number) => {
    const item = items.find((i) => idOf(i) === String(id));
    return item ? labelOf(item) : String(id);
  };
  const position = (id: string | number | undefined) => (id === undefined ? 0 : ids.indexOf(String(id)) + 1);
  // dnd-kit reports the picked-up item over itself right after the pick-up: saying "moved" then would
  // replace "Picked up …" before a screen reader reads it. Once it has left its place, every move is told.
  const leftItsPlace = useRef(false);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      leftItsPlace.current = false;
      return `Picked up ${nameOf(active.id)}, position ${position(active.id)} of ${ids.length} ${listLabel}.`;
    },
    onDragOver: ({ active, over }) => {
      if (over?.id === active.id && !leftItsPlace.current) return undefined;
      leftItsPlace.current = true;
      return over ? `${nameOf(active.id)} moved to position ${position(over.id)} of ${ids.length}.` : `${nameOf(active.id)} is no longer over the list.`;
    },
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} dropped at position ${position(over.id)} of ${ids.length}.` : `${nameOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    onReorder(arrayMove([...items], ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: `To move an item, press Space or Enter. Use the arrow keys to move it through the ${listLabel}, Space or Enter to drop it, Escape to cancel.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        <ul className="space-y-2">
          {items.map((item, index) => (
            <SortableRow key={idOf(item)} id={idOf(item)} label={labelOf(item)} disabled={disabled}>
              {(handle) => renderItem(item, handle, index)}
            </SortableRow>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ id, label, disabled, children }: { id: string; label: string; disabled?: boolean | undefined; children(handle: ReactNode): ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: Boolean(disabled) });
  const handle = <DragHandle ref={setActivatorNodeRef} {...attributes} {...listeners} label={label} disabled={disabled} />;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? 'relative z-10 opacity-90 shadow-lg' : undefined}
    >
      {children(handle)}
    </li>
  );
}
