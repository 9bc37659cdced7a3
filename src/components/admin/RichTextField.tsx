/**
 * The WYSIWYG field every HTML field of the admin uses (service, package and demo descriptions, article
 * bodies, FAQ answers, the policies): TipTap with a keyboard-accessible toolbar, link and picture dialogs,
 * an HTML view for markup the visual editor cannot represent, and a Preview that shows what the server
 * stores on save (its sanitizeHtml), byte for byte, with the public pages' styles.
 *
 * The value is an HTML string. Loading a text does not change it: only an edit does, and an edit undone
 * back to the loaded text gives the loaded string again, so opening a record never marks it unsaved.
 * TipTap is imported only here: only admin islands reach it.
 *
 * A picture file dropped or pasted into the text is uploaded to the media library (the picture dialog's
 * upload: the library's checks, progress and retries) and inserted where it was dropped, once its alt
 * text is given. The `document` size (an article's body) is the page's main thing: tall, growing with the
 * text, its tabs and toolbar staying in view below the editor's bar while a long text scrolls.
 */
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import type { EditorView } from '@tiptap/pm/view';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { inputClass } from '../forms/field';
import { editorExtensions, type ShortcutHandlers } from './rich-text/extensions';
import { ImageDialog } from './rich-text/ImageDialog';
import { LinkDialog, type LinkChoice } from './rich-text/LinkDialog';
import { formattingLostIn } from './rich-text/lost-formatting';
import { Preview } from './rich-text/Preview';
import { Toolbar } from './rich-text/Toolbar';
import { imageFileOf } from './use-image-upload';
import './rich-text/rich-text.css';

interface Props {
  label: string;
  /** HTML. */
  value: string;
  onValue(html: string): void;
  error?: string | undefined;
  hint?: string | undefined;
  className?: string | undefined;
  /** 'document': the writing area of a page (tall, grows with the text, sticky toolbar). */
  size?: 'field' | 'document';
}

type Tab = 'write' | 'html' | 'preview';
const TABS: { id: Tab; label: string }[] = [
  { id: 'write', label: 'Write' },
  { id: 'html', label: 'HTML' },
  { id: 'preview', label: 'Preview' },
];

type Dialog =
  | { kind: 'link'; href: string; newTab: boolean; askText: boolean; existing: boolean }
  | { kind: 'image'; src: string; alt: string; editing: boolean; file?: File | undefined };

/**
 * A picture file among what is pasted: a copied picture, a screenshot. A paste that also carries plain text
 * (a word processor puts a picture of the selection beside the text) is a text paste.
 */
function pastedPicture(data: DataTransfer | null): File | undefined {
  if (!data?.files.length || data.getData('text/plain').trim()) return undefined;
  return imageFileOf(data.files);
}

/**
 * The editor's HTML: '' for an empty document (TipTap says "<p></p>"), and without the empty paragraph
 * TipTap keeps after a closing picture or list so the caret can get below it.
 */
const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML().replace(/(?:<p><\/p>)+$/, ''));

export function RichTextField({ label, value, onValue, error, hint, className, size = 'field' }: Props) {
  const isDocument = size === 'document';
  const id = useId();
  const ids = { label: `${id}-label`, editor: `${id}-editor`, hint: `${id}-hint`, error: `${id}-error`, tab: (t: Tab) => `${id}-tab-${t}`, panel: (t: Tab) => `${id}-panel-${t}` };
  const describedBy = [hint && !error && ids.hint, error && ids.error].filter(Boolean).join(' ') || undefined;
  const [tab, setTab] = useState<Tab>('write');
  const [lost, setLost] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog>();
  const [initialValue] = useState(value);

  const onValueRef = useRef(onValue);
  useEffect(() => {
    onValueRef.current = onValue;
  }, [onValue]);
  /** The HTML the editor shows, as the parent knows it (loaded or emitted). */
  const shown = useRef(value);
  /** The last text loaded into the editor, and how TipTap writes it: an edit undone back to it gives the original. */
  const loaded = useRef({ original: value, normalized: '' });
  const toolbarRef = useRef<HTMLDivElement>(null);
  const handlers = useRef<ShortcutHandlers>({ link: () => false, toolbar: () => false });
  const extensions = useMemo(() => editorExtensions(handlers), []);
  /** A picture file dropped (at a position in the text) or pasted: set once the editor exists. */
  const pictureFile = useRef<(file: File, at?: number) => void>(() => undefined);

  const attributes = useMemo(
    () => ({
      id: ids.editor,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': ids.label,
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(error ? { 'aria-invalid': 'true' } : {}),
      class: isDocument
        ? 'prose-content min-h-[60vh] px-4 py-5 text-lg leading-8 focus:outline-none sm:px-8 sm:py-8'
        : 'prose-content min-h-48 px-4 py-3 text-base focus:outline-none sm:text-sm sm:leading-6',
    }),
    [ids.editor, ids.label, describedBy, error, isDocument],
  );
  const editorProps = useMemo(
    () => ({
      attributes,
      handlePaste: (_view: EditorView, event: ClipboardEvent) => {
        const file = pastedPicture(event.clipboardData);
        if (!file) return false;
        event.preventDefault();
        pictureFile.current(file);
        return true;
      },
      handleDrop: (view: EditorView, event: DragEvent, _slice: unknown, moved: boolean) => {
        const file = moved ? undefined : imageFileOf(event.dataTransfer?.files);
        if (!file) return false;
        event.preventDefault();
        pictureFile.current(file, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
        return true;
      },
    }),
    [attributes],
  );

  const editor = useEditor({
    extensions,
    content: initialValue,
    immediatelyRender: false,
    injectCSS: false,
    editorProps,
    onCreate: ({ editor: e }) => {
      loaded.current = { original: initialValue, normalized: htmlOf(e) };
    },
    onUpdate: ({ editor: e }) => {
      const html = htmlOf(e);
      const next = html === loaded.current.normalized ? loaded.current.original : html;
      shown.current = next;
      onValueRef.current(next);
    },
  });

  // The attributes follow the error and hint (TipTap keeps the options it was created with otherwise).
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setOptions({ editorProps });
  }, [editor, editorProps]);

  // A text that uses markup the visual editor cannot keep opens in the HTML view.
  useEffect(() => {
    const found = formattingLostIn(initialValue);
    setLost(found);
    if (found.length) setTab('html');
  }, [initialValue]);

  // A value set from outside (the HTML view, a restored draft, "restore the default text"): load it.
  useEffect(() => {
    if (!editor || editor.isDestroyed || tab !== 'write' || value === shown.current) return;
    editor.commands.setContent(value, { emitUpdate: false });
    loaded.current = { original: value, normalized: htmlOf(editor) };
    shown.current = value;
    setLost(formattingLostIn(value));
  }, [editor, value, tab]);

  const openLinkDialog = useCallback(() => {
    if (!editor) return false;
    const attrs = editor.getAttributes('link') as { href?: string; target?: string };
    const existing = editor.isActive('link');
    setDialog({ kind: 'link', href: attrs.href ?? '', newTab: attrs.target === '_blank', askText: !existing && editor.state.selection.empty, existing });
    return true;
  }, [editor]);

  const openImageDialog = useCallback(() => {
    if (!editor) return;
    const editing = editor.isActive('image');
    const attrs = editing ? (editor.getAttributes('image') as { src?: string; alt?: string }) : {};
    setDialog({ kind: 'image', src: attrs.src ?? '', alt: attrs.alt ?? '', editing });
  }, [editor]);

  useEffect(() => {
    pictureFile.current = (file, at) => {
      if (!editor) return;
      // The picture goes where it was dropped (or at the caret for a paste) once its alt text is given.
      if (at !== undefined) editor.commands.setTextSelection(at);
      setDialog({ kind: 'image', src: '', alt: '', editing: false, file });
    };
  }, [editor]);

  useEffect(() => {
    handlers.current = {
      link: openLinkDialog,
      toolbar: () => {
        toolbarRef.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
        return true;
      },
    };
  }, [openLinkDialog]);

  /** Back to the text once the dialog has closed (closing a modal dialog moves the focus itself first). */
  const closeDialog = () => {
    setDialog(undefined);
    requestAnimationFrame(() => editor?.commands.focus());
  };

  const applyLink = ({ href, newTab, text }: LinkChoice) => {
    if (!editor) return;
    const attrs = { href, target: newTab ? '_blank' : null, rel: newTab ? 'noopener noreferrer' : null };
    if (text) editor.chain().insertContent({ type: 'text', text, marks: [{ type: 'link', attrs }] }).run();
    else editor.chain().extendMarkRange('link').setLink(attrs).run();
    closeDialog();
  };

  const removeLink = () => {
    editor?.chain().extendMarkRange('link').unsetLink().run();
    closeDialog();
  };

  const applyImage = (image: { src: string; alt: string }) => {
    if (!editor) return;
    if (editor.isActive('image')) editor.chain().updateAttributes('image', image).run();
    else editor.chain().setImage(image).run();
    closeDialog();
  };

  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex((t) => t.id === tab);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length]!.id;
    setTab(next);
    document.getElementById(ids.tab(next))?.focus();
  };

  return (
    <div className={className} data-rich-text>
      <div id={ids.label} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </div>
      <div
        className={`overflow-clip rounded-lg border bg-white shadow-sm focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-brand-600 ${error ? 'border-red-600' : 'border-slate-300'}`}
      >
        {/* In a document the tabs and the toolbar stay below the editor's bar while the text scrolls. */}
        <div className={isDocument ? 'sticky z-10 rounded-t-lg bg-white top-[var(--editor-bar-bottom,0px)]' : undefined} data-rich-text-head>
        <div role="tablist" aria-labelledby={ids.label} onKeyDown={onTabKey} className="flex border-b border-slate-200 bg-white px-1">
          {TABS.map((t) => (
            <button
              key={t.id}
              id={ids.tab(t.id)}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              aria-controls={ids.panel(t.id)}
              tabIndex={tab === t.id ? 0 : -1}
              onClick={() => setTab(t.id)}
              className="-mb-px h-10 border-b-2 border-transparent px-3 text-sm font-medium text-slate-600 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600 aria-selected:border-brand-600 aria-selected:text-brand-800"
            >
              {t.label}
            </button>
          ))}
        </div>
        {editor && tab === 'write' && (
          <Toolbar editor={editor} controls={ids.editor} label={label} onLink={() => void openLinkDialog()} onImage={openImageDialog} toolbarRef={toolbarRef} />
        )}
        </div>

        <div role="tabpanel" id={ids.panel('write')} aria-labelledby={ids.tab('write')} hidden={tab !== 'write'}>
          {lost.length > 0 && (
            <p className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900">
              This text uses formatting the visual editor cannot keep ({lost.join(', ')}). Changing it here removes that formatting: edit it in the HTML view to
              keep it.
            </p>
          )}
          {editor ? (
            // A long text scrolls inside a small field, so its toolbar stays in view; a document grows.
            <EditorContent editor={editor} className={isDocument ? undefined : 'max-h-[65vh] overflow-y-auto'} />
          ) : (
            <p className="min-h-48 px-4 py-3 text-sm text-slate-600">Loading the editor…</p>
          )}
        </div>

        <div role="tabpanel" id={ids.panel('html')} aria-labelledby={ids.tab('html')} hidden={tab !== 'html'}>
          <textarea
            aria-labelledby={`${ids.label} ${ids.tab('html')}`}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            value={value}
            onChange={(e) => onValue(e.target.value)}
            spellCheck={false}
            rows={isDocument ? 30 : 14}
            className={`${inputClass} h-auto min-h-48 rounded-none border-0 py-3 font-mono text-sm leading-6 shadow-none focus:outline-none`}
          />
        </div>

        <div role="tabpanel" id={ids.panel('preview')} aria-labelledby={ids.tab('preview')} hidden={tab !== 'preview'}>
          <Preview html={value} active={tab === 'preview'} />
        </div>
      </div>
      {hint && !error && (
        <p id={ids.hint} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.error} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}

      {dialog?.kind === 'link' && (
        <LinkDialog initial={dialog} askText={dialog.askText} onApply={applyLink} onRemove={dialog.existing ? removeLink : undefined} onClose={closeDialog} />
      )}
      {dialog?.kind === 'image' && <ImageDialog initial={dialog} editing={dialog.editing} file={dialog.file} onApply={applyImage} onClose={closeDialog} />}
    </div>
  );
}
