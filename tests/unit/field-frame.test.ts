/**
 * The frame of every form field: a screen reader hears the hint while the field is fine and the error
 * once it is not (the error replaces the hint on screen, and in what the input is described by).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FieldFrame } from '../../src/components/forms/field';

function render(props: { hint?: string; error?: string }) {
  const html = renderToStaticMarkup(
    createElement(FieldFrame, { label: 'Name', ...props, input: (a11y) => createElement('input', a11y) }),
  );
  const described = /aria-describedby="([^"]*)"/.exec(html)?.[1];
  const ids = [...html.matchAll(/<p id="([^"]+)"[^>]*>([^<]*)<\/p>/g)].map((m) => ({ id: m[1], text: m[2] }));
  return { html, described, ids };
}

describe('FieldFrame', () => {
  it('describes the input by its hint while there is no error', () => {
    const { described, ids } = render({ hint: 'Shown on the card.' });
    expect(ids).toEqual([{ id: described, text: 'Shown on the card.' }]);
  });

  it('describes the input by the error alone once the error replaces the hint', () => {
    const { html, described, ids } = render({ hint: 'Shown on the card.', error: 'Enter a name.' });
    expect(ids).toEqual([{ id: described, text: 'Enter a name.' }]);
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toContain('Shown on the card.');
  });

  it('has no description without hint or error', () => {
    expect(render({}).described).toBeUndefined();
  });
});
