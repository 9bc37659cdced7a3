/**
 * Image files for the media tests (integration and e2e): a real photo-like JPEG carrying a camera's EXIF,
 * and a PNG "decompression bomb" — a few bytes whose header declares more pixels than any server should
 * decode.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';

/** Text the JPEG's EXIF carries; none of it may survive an upload. */
export const EXIF_SECRETS = ['Secret Owner', 'Secret Photographer', 'SpyCam'] as const;

/** A photo-like JPEG (noise, so it has real entropy-coded data and does not compress to nothing) with EXIF: who took it, and where. */
export async function photoJpeg(width = 1200, height = 800, orientation?: number): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const img = sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Artist: 'Secret Photographer', Copyright: 'Secret Owner 2026', Make: 'SpyCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } });
  return (orientation ? img.withMetadata({ orientation }) : img).toBuffer();
}

/** A PNG whose header claims `side` × `side` pixels: a few hundred bytes that would decode to gigabytes. */
export function pngBomb(side = 30_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = zlib.deflateSync(Buffer.alloc(side * 3 + 1)); // one row: the rest would be inflated later
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}
