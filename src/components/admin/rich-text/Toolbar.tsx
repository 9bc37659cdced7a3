/**
 * The formatting toolbar: one tab stop (roving focus: arrow keys, Home and End move between buttons;
 * Escape goes back to the text), toggles say whether they are on (aria-pressed), each button names its
 * keyboard shortcut. A command returns the focus to the text, where the admin goes on typing.
 */
import { useEditorState, type Editor } from '@tiptap/react';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

interface Tool {
  name: string;
  label: string;
  icon: ReactNode;
  /** Shown in the tooltip, in aria-keyshortcuts form ("Control+B"). */
  keys?: string;
  /** undefined: an action, not a toggle. */
  pressed?: boolean;
  disabled?: boolean;
  run(): void;
  /** Draw a divider before this button. */
  group?: boolean;
}

interface Props {
  editor: Editor;
  controls: string;
  label: string;
  onLink(): void;
  onImage(): void;
  toolbarRef: React.RefObject<HTMLDivElement | null>;
}

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const keyText = (keys: string) => (isMac() ? keys.replace('Control+', '⌘').replace('Shift+', '⇧').replace('Alt+', '⌥') : keys.replace('Control+', 'Ctrl+'));

const svg = (d: string) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-none stroke-current" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
    <path d={d} />
  </svg>
);
const text = (t: string, className = '') => (
  <span aria-hidden="true" className={`text-sm leading-none ${className}`}>
    {t}
  </span>
);

const ICONS = {
  bulletList: svg('M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01'),
  orderedList: svg('M10 6h10M10 12h10M10 18h10M4 4.5h1.5V9M4 9h3M4 14.5c.5-.7 2.5-.9 2.6.4.1 1-2.6 2.1-2.6 3.6h3'),
  quote: svg('M7 7h4v5c0 3-1.5 4.5-4 5M15 7h4v5c0 3-1.5 4.5-4 5M7 7v5h4M15 7v5h4'),
  link: svg('M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'),
  image: svg('M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5h.01'),
  undo: svg('M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11'),
  redo: svg('m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13'),
};

export function Toolbar({ editor, controls, label, onLink, onImage, toolbarRef }: Props) {
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      paragraph: e.isActive('paragraph'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      image: e.isActive('image'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const chain = () => editor.chain().focus();
  const tools: Tool[] = [
    { name: 'paragraph', label: 'Paragraph', icon: text('¶', 'text-base'), keys: 'Control+Alt+0', pressed: state.paragraph, run: () => chain().setParagraph().run() },
    { name: 'h2', label: 'H2 heading', icon: text('H2', 'font-semibold'), keys: 'Control+Alt+2', pressed: state.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { name: 'h3', label: 'H3 heading', icon: text('H3', 'font-semibold'), keys: 'Control+Alt+3', pressed: state.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { name: 'bold', label: 'Bold', icon: text('B', 'text-base font-bold'), keys: 'Control+B', pressed: state.bold, run: () => chain().toggleBold().run(), group: true },
    { name: 'italic', label: 'Italic', icon: text('I', 'font-serif text-base italic'), keys: 'Control+I', pressed: state.italic, run: () => chain().toggleItalic().run() },
    { name: 'link', label: state.link ? 'Edit link' : 'Link', icon: ICONS.link, keys: 'Control+K', pressed: state.link, run: onLink },
    { name: 'bulletList', label: 'Bulleted list', icon: ICONS.bulletList, keys: 'Control+Shift+8', pressed: state.bulletList, run: () => chain().toggleBulletList().run(), group: true },
    { name: 'orderedList', label: 'Numbered list', icon: ICONS.orderedList, keys: 'Control+Shift+7', pressed: state.orderedList, run: () => chain().toggleOrderedList().run() },
    { name: 'blockquote', label: 'Quote', icon: ICONS.quote, keys: 'Control+Shift+B', pressed: state.blockquote, run: () => chain().toggleBlockquote().run() },
    { name: 'image', label: state.image ? 'Edit picture' : 'Picture', icon: ICONS.image, run: onImage },
    { name: 'undo', label: 'Undo', icon: ICONS.undo, keys: 'Control+Z', disabled: !state.canUndo, run: () => chain().undo().run(), group: true },
    { name: 'redo', label: 'Redo', icon: ICONS.redo, keys: 'Control+Shift+Z', disabled: !state.canRedo, run: () => chain().redo().run() },
  ];

  const focusAt = (i: number) => {
    const next = (i + tools.length) % tools.length;
    setCurrent(next);
    buttons.current[next]?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, () => void> = {
      ArrowRight: () => focusAt(current + 1),
      ArrowLeft: () => focusAt(current - 1),
      Home: () => focusAt(0),
      End: () => focusAt(tools.length - 1),
      Escape: () => editor.commands.focus(),
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      move();
    }
  };

  return (
    <div
      ref={toolbarRef}
      role="toolbar"
      aria-label={`${label}: formatting`}
      aria-controls={controls}
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-slate-50 p-1"
    >
      {tools.map((tool, i) => (
        <span key={tool.name} className="contents">
          {tool.group && <span aria-hidden="true" className="mx-1 h-6 w-px bg-slate-300" />}
          <button
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            data-tool={tool.name}
            tabIndex={i === current ? 0 : -1}
            aria-label={tool.label}
            aria-pressed={tool.pressed}
            aria-disabled={tool.disabled || undefined}
            aria-keyshortcuts={tool.keys}
            title={tool.keys ? `${tool.label} (${keyText(tool.keys)})` : tool.label}
            onFocus={() => setCurrent(i)}
            onMouseDown={(e) => e.preventDefault() /* keep the text's selection */}
            onClick={() => {
              if (!tool.disabled) tool.run();
            }}
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent aria-pressed:bg-brand-100 aria-pressed:text-brand-800"
          >
            {tool.icon}
          </button>
        </span>
      ))}
    </div>
  );
}
