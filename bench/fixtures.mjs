// Content the benchmarks load: many realistic articles, the same for the admin list (g) and the chat (h).

const TAGS = ['automation', 'clinics', 'coaching', 'leads', 'chatbots', 'seo', 'booking', 'reviews'];

/** Article number `i`: a long HTML body, two tags, one in four a draft. */
export function benchArticle(i) {
  return {
    id: `bench-${i}`,
    slug: `bench-article-${i}`,
    title: `Bench article ${i}: answering every lead within a minute`,
    excerpt: 'How a small clinic stopped losing enquiries after hours, step by step, with numbers.',
    content: `<h2>Article ${i}</h2>${'<p>A paragraph of a realistic length about lead handling and follow-ups.</p>'.repeat(20)}`,
    authorName: 'Bench Author',
    tags: [TAGS[i % TAGS.length], TAGS[(i * 3 + 1) % TAGS.length]],
    published: i % 4 !== 0,
  };
}

/**
 * A photo as an admin's upload leaves it: a 1600 × 1067 picture with smooth colour and sensor-like grain,
 * re-encoded the way src/server/media/process.ts stores uploads (WebP, quality 82, effort 4), about 200 KB,
 * named by its content hash. Returned as a content-file media record plus its bytes.
 */
export async function benchPhoto() {
  const { createHash } = await import('node:crypto');
  const { default: sharp } = await import('sharp');
  const width = 1600;
  const height = 1067;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 1;
  const grain = () => (((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536 - 0.5) * 60;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const n = grain();
      raw[i] = Math.max(0, Math.min(255, 40 + (180 * x) / width + n));
      raw[i + 1] = Math.max(0, Math.min(255, 90 + 100 * Math.sin(y / 90) + n));
      raw[i + 2] = Math.max(0, Math.min(255, 200 - (150 * y) / height + n));
    }
  }
  const camera = await sharp(raw, { raw: { width, height, channels: 3 } }).blur(0.8).jpeg({ quality: 88 }).toBuffer();
  const { data, info } = await sharp(camera)
    .rotate()
    .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82, effort: 4 })
    .toBuffer({ resolveWithObject: true });
  const id = createHash('sha256').update(data).digest('hex').slice(0, 32);
  return {
    bytes: data,
    record: { id, contentType: 'image/webp', width: info.width, height: info.height, alt: 'Bench photo', data: data.toString('base64') },
  };
}
