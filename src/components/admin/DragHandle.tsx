/**
 * The grip a person drags an item by, or focuses and moves with the keyboard (dnd-kit's activator): the same
 * look, size and name ("Move …") on every sortable list and on the pipeline board.
 */
import { forwardRef, type ButtonHTMLAttributes } from 'react';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className' | 'children'> & { label: string };

export const DragHandle = forwardRef<HTMLButtonElement, Props>(function DragHandle({ label, ...rest }, ref) {
  return (
    <button
      type="button"
      ref={ref}
      {...rest}
      aria-label={`Move ${label}`}
      className="inline-flex h-10 w-8 flex-none cursor-grab touch-none items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-ink active:cursor-grabbing disabled:cursor-default disabled:opacity-40"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
        <path d="M7 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm0 6a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM16 4a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Zm-1.5 7.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM16 16a1.5 1.5 0 1 1-3 0 1.5 1.5 0 0 1 3 0Z" />
      </svg>
    </button>
  );
});
