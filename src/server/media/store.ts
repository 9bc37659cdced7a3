/** Storing an uploaded image: validated and converted by processImage, then saved under its content hash. */
import { processImage, type ProcessedImage, type ResizeOptions, DEFAULT_RESIZE } from './process';
import { upsertMedia } from './repository';

export interface StoredImage extends Omit<ProcessedImage, 'data'> {
  size: number;
}

/** Throws MediaError (with a code and a message for the user) when the bytes are not a usable image. */
export async function storeImage(
  input: Uint8Array,
  meta: { alt?: string; originalName?: string } = {},
  resize: ResizeOptions = DEFAULT_RESIZE,
): Promise<StoredImage> {
  const image = await processImage(input, resize);
  await upsertMedia([
    {
      id: image.id,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      size: image.data.byteLength,
      alt: meta.alt ?? '',
      originalName: meta.originalName ?? '',
      data: image.data,
    },
  ]);
  const { data, ...rest } = image;
  return { ...rest, size: data.byteLength };
}
