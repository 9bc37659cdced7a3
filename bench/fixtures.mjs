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
