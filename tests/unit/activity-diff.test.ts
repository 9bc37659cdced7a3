/**
 * The activity log's field-by-field view (src/shared/activity-diff.ts): what changed, as plain text; a content
 * record field by field, a nested document down to the fields of its form, named with the form's labels.
 */
import { describe, expect, it } from 'vitest';
import { changeExcerpt, diffFields, diffRecords, fieldLabel, fieldLabelInSentence, LABEL_SEPARATOR, valueAsText, type FieldNames } from '../../src/shared/activity-diff';

const before = {
  id: 'lead-outreach',
  name: 'Lead outreach',
  price: 500,
  shortText: 'Fast replies',
  description: '<p>Old</p>',
  benefits: ['Faster replies', 'More leads'],
  order: 2,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('diffRecords', () => {
  it('lists only the fields that changed, in the record’s order, without the save time', () => {
    const after = { ...before, price: 650, benefits: ['Faster replies', 'More booked calls'], updatedAt: '2025-02-02T00:00:00.000Z' };
    expect(diffRecords(before, after)).toEqual([
      { field: 'price', label: 'Price', kind: 'changed', before: '500', after: '650' },
      { field: 'benefits', label: 'Benefits', kind: 'changed', before: 'Faster replies\nMore leads', after: 'Faster replies\nMore booked calls' },
    ]);
  });

  it('a creation lists every field it set as added; a deletion every field as removed', () => {
    const created = diffRecords(null, before);
    expect(created.map((c) => [c.field, c.kind])).toEqual([
      ['id', 'added'],
      ['name', 'added'],
      ['price', 'added'],
      ['shortText', 'added'],
      ['description', 'added'],
      ['benefits', 'added'],
      ['order', 'added'],
    ]);
    expect(created.every((c) => c.before === undefined)).toBe(true);
    const deleted = diffRecords(before, null);
    expect(deleted.every((c) => c.kind === 'removed' && c.after === undefined)).toBe(true);
    expect(deleted).toHaveLength(7);
  });

  it('a field cleared or filled in is removed or added; null and an empty string are both “nothing”', () => {
    expect(diffRecords({ picture: '/media/a.webp', alt: '' }, { picture: '', alt: null })).toEqual([
      { field: 'picture', label: 'Picture', kind: 'removed', before: '/media/a.webp', after: undefined },
    ]);
    expect(diffRecords({ price: null }, { price: 0 })).toEqual([{ field: 'price', label: 'Price', kind: 'added', before: undefined, after: '0' }]);
  });

  it('HTML stays text: the markup is in the value, nothing is parsed or cleaned here', () => {
    const [change] = diffRecords({ content: '<p>Hi</p>' }, { content: '<p>Hi <img src=x onerror=alert(1)></p>' });
    expect(change?.after).toBe('<p>Hi <img src=x onerror=alert(1)></p>');
  });

  it('compares structured values by content, not by key order', () => {
    const a = { features: [{ title: 'Fast', description: 'Live in a week' }] };
    const b = { features: [{ description: 'Live in a week', title: 'Fast' }] };
    expect(diffRecords(a, b)).toEqual([]);
    const [change] = diffRecords(a, { features: [{ title: 'Faster', description: 'Live in a week' }] });
    expect(change?.kind).toBe('changed');
    expect(change?.after).toContain('"title": "Faster"');
  });

  it('a reorder shows the old and new order one id a line', () => {
    expect(diffRecords({ order: ['a', 'b', 'c'] }, { order: ['c', 'a', 'b'] })).toEqual([
      { field: 'order', label: 'Order', kind: 'changed', before: 'a\nb\nc', after: 'c\na\nb' },
    ]);
  });

  it('nothing to compare gives no changes', () => {
    expect(diffRecords(null, null)).toEqual([]);
    expect(diffRecords('not a record', [1, 2])).toEqual([]);
    expect(diffRecords(before, { ...before, updatedAt: 'later' })).toEqual([]);
  });
});

describe('valueAsText and fieldLabel', () => {
  it('says values in words', () => {
    expect(valueAsText(true)).toBe('Yes');
    expect(valueAsText(false)).toBe('No');
    expect(valueAsText([])).toBeUndefined();
    expect(valueAsText('')).toBeUndefined();
    expect(valueAsText({ a: 1 })).toBe('{\n  "a": 1\n}');
  });

  it('names fields for people', () => {
    expect(fieldLabel('shortText')).toBe('Short text');
    expect(fieldLabel('authorName')).toBe('Author name');
    expect(fieldLabel('priceSetup')).toBe('Setup price');
    expect(fieldLabel('includedServiceIds')).toBe('Included services');
    expect(fieldLabel('featuredImageAlt')).toBe('Featured image alt text');
    expect(fieldLabel('isActive')).toBe('Active');
    expect(fieldLabel('id')).toBe('URL name (id)');
  });

  it('names fields inside a sentence in lower case, acronyms kept', () => {
    expect(fieldLabelInSentence('shortText')).toBe('short text');
    expect(fieldLabelInSentence('faqs')).toBe('FAQs');
    expect(fieldLabelInSentence('seo')).toBe('SEO');
    expect(fieldLabelInSentence('id')).toBe('URL name (id)');
  });
});

describe('changeExcerpt: a long text changed in one place', () => {
  const long = (middle: string) => `<p>${'Intro text. '.repeat(40)}</p><p>${middle}</p><p>${'Closing words. '.repeat(40)}</p>`;

  it('shows the changed part with some context, and says where text was left out', () => {
    const [change] = diffRecords({ content: long('Old sentence.') }, { content: long('New sentence!') });
    expect(change?.before).toBe(long('Old sentence.'));
    expect(change?.excerpt?.before).toMatch(/^….{90,}Old sentence\..{90,}…$/s);
    expect(change?.excerpt?.after).toMatch(/^….*New sentence!.*…$/s);
    expect(change!.excerpt!.after.length).toBeLessThan(260);
  });

  it('short texts, additions and a change near the start are shown whole where nothing would be left out', () => {
    expect(diffRecords({ name: 'A' }, { name: 'B' })[0]?.excerpt).toBeUndefined();
    expect(diffRecords({}, { content: long('x') })[0]?.excerpt).toBeUndefined();
    const start = changeExcerpt(`A${'b'.repeat(500)}`, `Z${'b'.repeat(500)}`);
    expect(start?.before).toMatch(/^Ab{100}…$/);
  });

  it('never splits an emoji', () => {
    // 😀 and 😁 share their first UTF-16 unit: the texts part in the middle of a character.
    const before = `${'🙂'.repeat(300)}😀${'🙂'.repeat(300)}`;
    const after = `${'🙂'.repeat(300)}😁${'🙂'.repeat(300)}`;
    const excerpt = changeExcerpt(before, after)!;
    expect(excerpt.before).toMatch(/^…(🙂)+😀(🙂)+…$/u);
    expect(excerpt.after).toMatch(/^…(🙂)+😁(🙂)+…$/u);
  });
});

describe('diffFields: a nested document named as its form names it', () => {
  const names: FieldNames = {
    siteName: 'Site name',
    hero: { label: 'Hero', fields: { headline: 'Headline', rotatingPhrases: 'Rotating phrases' } },
    testimonials: { label: 'Testimonials', item: 'Testimonial', fields: { quote: 'Quote', name: 'Name' } },
    offerings: { item: 'Offering card', fields: { title: 'Title' } },
    askContact: { label: 'Ask visitors', words: { 'at-start': 'Before the first question', 'when-needed': 'Only when needed' } },
    hidden: { label: `Blocks${LABEL_SEPARATOR}Hidden`, words: { faqs: 'FAQ', cta: 'Final call-to-action' } },
    replies: { label: 'Quick replies', item: 'Quick reply', fields: (r) => ({ kind: 'Kind', value: r.kind === 'link' ? 'Link' : 'Message sent' }) },
  };
  const doc = {
    siteName: 'Autoflow',
    hero: { headline: 'We automate your', rotatingPhrases: ['lead outreach', 'reminders'] },
    testimonials: [
      { quote: 'Great.', name: 'Amelia' },
      { quote: 'Fast.', name: 'Marcus' },
    ],
    offerings: [{ title: 'Outreach' }],
    askContact: 'when-needed',
    hidden: [] as string[],
    replies: [{ kind: 'link', value: '/free-audit' }],
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('one headline changed is one change, named section › field, with its path', () => {
    expect(diffFields(doc, { ...doc, hero: { ...doc.hero, headline: 'We run your' }, updatedAt: 'later' }, names)).toEqual([
      { field: 'hero.headline', label: 'Hero › Headline', kind: 'changed', before: 'We automate your', after: 'We run your' },
    ]);
  });

  it('names an item of a list by its position; a list without a label of its own starts with the item', () => {
    const after = { ...doc, testimonials: [doc.testimonials[0], { quote: 'Faster.', name: 'Marcus' }], offerings: [{ title: 'Nurturing' }] };
    expect(diffFields(doc, after, names).map((c) => [c.field, c.label, c.before, c.after])).toEqual([
      ['testimonials.1.quote', 'Testimonials › Testimonial 2 › Quote', 'Fast.', 'Faster.'],
      ['offerings.0.title', 'Offering card 1 › Title', 'Outreach', 'Nurturing'],
    ]);
  });

  it('an item added or removed lists its fields as added or removed', () => {
    const added = diffFields(doc, { ...doc, testimonials: [...doc.testimonials, { quote: 'New.', name: 'Priya' }] }, names);
    expect(added.map((c) => [c.label, c.kind, c.after])).toEqual([
      ['Testimonials › Testimonial 3 › Quote', 'added', 'New.'],
      ['Testimonials › Testimonial 3 › Name', 'added', 'Priya'],
    ]);
    const removed = diffFields(doc, { ...doc, testimonials: doc.testimonials.slice(0, 1) }, names);
    expect(removed.map((c) => [c.label, c.kind, c.before])).toEqual([
      ['Testimonials › Testimonial 2 › Quote', 'removed', 'Fast.'],
      ['Testimonials › Testimonial 2 › Name', 'removed', 'Marcus'],
    ]);
  });

  it('a list of words stays one field, one a line; stored codes read as the form’s options', () => {
    const after = { ...doc, hero: { ...doc.hero, rotatingPhrases: ['lead outreach', 'no-shows'] }, askContact: 'at-start', hidden: ['faqs', 'cta'] };
    expect(diffFields(doc, after, names)).toEqual([
      { field: 'hero.rotatingPhrases', label: 'Hero › Rotating phrases', kind: 'changed', before: 'lead outreach\nreminders', after: 'lead outreach\nno-shows' },
      { field: 'askContact', label: 'Ask visitors', kind: 'changed', before: 'Only when needed', after: 'Before the first question' },
      { field: 'hidden', label: 'Blocks › Hidden', kind: 'added', before: undefined, after: 'FAQ\nFinal call-to-action' },
    ]);
  });

  it('an item’s field may be named after the item (a quick reply’s value is a link or a message)', () => {
    const toMessage = diffFields(doc, { ...doc, replies: [{ kind: 'message', value: 'Hello' }] }, names);
    expect(toMessage.map((c) => [c.field, c.label])).toEqual([
      ['replies.0.kind', 'Quick replies › Quick reply 1 › Kind'],
      ['replies.0.value', 'Quick replies › Quick reply 1 › Message sent'],
    ]);
  });

  it('fields the names leave out are still compared, nested ones walked and named from their keys', () => {
    const before = { business: { legalName: 'Old Ltd.', geo: { latitude: 1 } }, extra: 'x' };
    const after = { business: { legalName: 'New Ltd.', geo: { latitude: 2 } }, extra: 'x' };
    expect(diffFields(before, after, {}).map((c) => [c.field, c.label])).toEqual([
      ['business.legalName', 'Business › Legal name'],
      ['business.geo.latitude', 'Business › Geo › Latitude'],
    ]);
  });

  it('nothing changed gives nothing; long texts are cut to the change; HTML stays text', () => {
    expect(diffFields(doc, structuredClone(doc), names)).toEqual([]);
    const long = (middle: string) => `<p>${'Intro text. '.repeat(40)}</p><p>${middle}</p><p>${'Closing words. '.repeat(40)}</p>`;
    const [change] = diffFields({ siteName: long('<b>Old</b>') }, { siteName: long('<b>New</b>') }, names);
    expect(change?.excerpt?.before).toMatch(/^….*<b>Old<\/b>.*…$/s);
    expect(change!.excerpt!.after.length).toBeLessThan(260);
  });
});
