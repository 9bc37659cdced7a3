import { describe, expect, it } from 'vitest';
import { renderedOnce } from '../../src/server/cache/rendered-once';

describe('renderedOnce', () => {
  it('renders a part once per content object, and again for a new object (a change)', async () => {
    let renders = 0;
    const render = (text: string) => async () => (renders++, `<p>${text}</p>`);
    const snapshot = { faqs: ['a'] };
    expect(await renderedOnce(snapshot, 'faqs', render('one'))).toBe('<p>one</p>');
    expect(await renderedOnce(snapshot, 'faqs', render('two'))).toBe('<p>one</p>');
    expect(await renderedOnce(snapshot, 'hero', render('hero'))).toBe('<p>hero</p>');
    expect(renders).toBe(2);
    const changed = { faqs: ['b'] };
    expect(await renderedOnce(changed, 'faqs', render('three'))).toBe('<p>three</p>');
    expect(renders).toBe(3);
  });

  it('shares one render between concurrent requests and keeps no failed render', async () => {
    const snapshot = {};
    let renders = 0;
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve(`<p>${++renders}</p>`), 10));
    expect(await Promise.all([renderedOnce(snapshot, 'a', slow), renderedOnce(snapshot, 'a', slow)])).toEqual(['<p>1</p>', '<p>1</p>']);
    await expect(renderedOnce(snapshot, 'b', () => Promise.reject(new Error('render failed')))).rejects.toThrow('render failed');
    expect(await renderedOnce(snapshot, 'b', async () => '<p>ok</p>')).toBe('<p>ok</p>');
  });
});
