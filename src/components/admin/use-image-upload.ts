/**
 * One image upload at a time into the media library, for a field that holds one picture (an image field,
 * the rich text's picture dialog): the same checks and endpoint as the library itself (uploadImage in
 * media-client: type, size, then the server decodes), its progress, its retries for up to 10 minutes, a
 * cancel, and a line for screen readers. A new upload replaces one still running.
 */
import { useEffect, useRef, useState } from 'react';
import { uploadImage, type UploadedImage } from './media-client';

export type UploadState =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; percent: number; attempt?: number | undefined }
  | { kind: 'failed'; name: string; message: string };

export interface ImageUpload {
  state: UploadState;
  /** What a polite live region reads out ("Uploading photo.jpg.", "Uploaded photo.jpg."). */
  announce: string;
  setAnnounce(text: string): void;
  /** Uploads `file`; `onUploaded` gets the stored image (an existing one when these bytes are stored). */
  send(file: File, options?: { alt?: string | undefined }): Promise<void>;
  cancel(): void;
  /** Forgets a failure (the admin moved on). */
  reset(): void;
}

export function useImageUpload(onUploaded: (item: UploadedImage, file: File) => void): ImageUpload {
  const [state, setState] = useState<UploadState>({ kind: 'idle' });
  const [announce, setAnnounce] = useState('');
  const running = useRef<AbortController>(undefined);
  const uploaded = useRef(onUploaded);
  useEffect(() => {
    uploaded.current = onUploaded;
  }, [onUploaded]);
  useEffect(() => () => running.current?.abort(), []);

  async function send(file: File, options: { alt?: string | undefined } = {}) {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState({ kind: 'uploading', name: file.name, percent: 0 });
    setAnnounce(`Uploading ${file.name}.`);
    const outcome = await uploadImage(file, {
      alt: options.alt,
      signal: controller.signal,
      onProgress: (f) => setState((u) => (u.kind === 'uploading' ? { ...u, percent: Math.round(f * 100) } : u)),
      onRetry: (attempt) => {
        setState((u) => (u.kind === 'uploading' ? { ...u, attempt: attempt + 1 } : u));
        if (attempt === 1) setAnnounce('Retrying upload…');
      },
    });
    if (running.current !== controller) return; // replaced by a newer upload
    running.current = undefined;
    if (outcome.ok) {
      setState({ kind: 'idle' });
      setAnnounce(`Uploaded ${file.name}.`);
      uploaded.current(outcome.data, file);
    } else if (outcome.cancelled) {
      setState({ kind: 'idle' });
      setAnnounce('Upload cancelled.');
    } else {
      setState({ kind: 'failed', name: file.name, message: outcome.message });
      setAnnounce(`Upload failed: ${outcome.message}`);
    }
  }

  return {
    state,
    announce,
    setAnnounce,
    send,
    cancel: () => running.current?.abort(),
    reset: () => setState((u) => (u.kind === 'failed' ? { kind: 'idle' } : u)),
  };
}

/** The first image file a drop or a paste carries, if any. */
export function imageFileOf(files: FileList | null | undefined): File | undefined {
  return [...(files ?? [])].find((f) => f.type.startsWith('image/')) ?? files?.[0];
}
