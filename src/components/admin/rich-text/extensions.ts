/**
 * The editor's document model: what the toolbar offers plus what stored HTML already uses and the
 * sanitizer keeps (h4–h6, code, strike, underline, rules), so opening a text does not drop it. Links are
 * plain (no target or rel added: internal links must not open new tabs); only addresses the link dialog
 * accepts survive typing and pasting. No data: images.
 */
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { Extension, type AnyExtension } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { checkLinkHref } from '../../../shared/rich-text';

/** True for an address stored as it is (the dialog may add https:// or mailto:, pasted HTML may not). */
const isAcceptedHref = (url: string) => {
  const checked = checkLinkHref(url);
  return checked.ok && checked.value === url.trim();
};

export interface ShortcutHandlers {
  /** Ctrl/Cmd+K: the link dialog. */
  link(): boolean;
  /** Alt+F10: to the toolbar (the convention of CKEditor and TinyMCE). */
  toolbar(): boolean;
}

export function editorExtensions(handlers: { current: ShortcutHandlers }): AnyExtension[] {
  return [
    StarterKit.configure({ heading: { levels: [2, 3, 4, 5, 6] }, link: false }),
    // Text typed right after a link is not part of it (TipTap makes links inclusive when autolinking).
    Link.extend({ inclusive: () => false }).configure({
      openOnClick: false,
      autolink: true,
      linkOnPaste: true,
      defaultProtocol: 'https',
      HTMLAttributes: { target: null, rel: null },
      isAllowedUri: (url) => isAcceptedHref(url),
    }),
    Image.configure({ inline: false, allowBase64: false }),
    Extension.create({
      name: 'richTextShortcuts',
      addKeyboardShortcuts() {
        return {
          'Mod-k': () => handlers.current.link(),
          'Alt-F10': () => handlers.current.toolbar(),
        };
      },
    }),
  ];
}
