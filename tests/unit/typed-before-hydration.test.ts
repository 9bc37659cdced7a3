/**
 * Which server-rendered fields a visitor changed before the island hydrated, and the event that hands each
 * change to the field's onChange (the DOM half is covered in Chromium by typed-before-hydration.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { fieldKindOf, replayFor, type ShownField } from '../../src/shared/typed-before-hydration';

const field = (shown: Partial<ShownField>): ShownField => ({ value: '', checked: false, selected: [], files: 0, ...shown });

describe('fieldKindOf', () => {
  it('reads every typed input as text, and textareas too', () => {
    for (const type of ['text', 'email', 'password', 'tel', 'url', 'search', 'number', 'date', 'datetime-local', 'time']) expect(fieldKindOf('INPUT', type)).toBe('text');
    expect(fieldKindOf('TEXTAREA', 'textarea')).toBe('text');
  });

  it('tells checkboxes, radio buttons, selects and file pickers apart', () => {
    expect(fieldKindOf('INPUT', 'checkbox')).toBe('checkbox');
    expect(fieldKindOf('INPUT', 'radio')).toBe('radio');
    expect(fieldKindOf('SELECT', 'select-one')).toBe('select');
    expect(fieldKindOf('SELECT', 'select-multiple')).toBe('select');
    expect(fieldKindOf('INPUT', 'file')).toBe('file');
  });

  it('leaves out what nobody types into: hidden inputs (attribution, form intent) and buttons', () => {
    for (const type of ['hidden', 'submit', 'button', 'reset', 'image']) expect(fieldKindOf('INPUT', type)).toBeUndefined();
    expect(fieldKindOf('BUTTON', 'submit')).toBeUndefined();
    expect(fieldKindOf('FIELDSET', '')).toBeUndefined();
  });
});

describe('replayFor', () => {
  it('replays typed text, passwords included, as an input event', () => {
    expect(replayFor('text', field({ value: 'Ada' }), field({ value: '' }))).toBe('input');
    expect(replayFor('text', field({ value: 'a new summary' }), field({ value: 'the saved summary' }))).toBe('input');
  });

  it('leaves a field alone when it shows what the server sent, even after typing and deleting it again', () => {
    expect(replayFor('text', field({ value: 'the saved summary' }), field({ value: 'the saved summary' }))).toBeUndefined();
    expect(replayFor('checkbox', field({ checked: true }), field({ checked: true }))).toBeUndefined();
    expect(replayFor('select', field({ selected: [2] }), field({ selected: [2] }))).toBeUndefined();
    expect(replayFor('file', field({}), field({}))).toBeUndefined();
  });

  it('replays a checkbox checked or unchecked as a click', () => {
    expect(replayFor('checkbox', field({ checked: true }), field({ checked: false }))).toBe('click');
    expect(replayFor('checkbox', field({ checked: false }), field({ checked: true }))).toBe('click');
  });

  it('replays only the radio button that became checked, not the one it replaced', () => {
    expect(replayFor('radio', field({ checked: true }), field({ checked: false }))).toBe('click');
    expect(replayFor('radio', field({ checked: false }), field({ checked: true }))).toBeUndefined();
  });

  it('replays another choice in a select, single or multiple, as a change', () => {
    expect(replayFor('select', field({ selected: [1] }), field({ selected: [0] }))).toBe('change');
    expect(replayFor('select', field({ selected: [0, 3] }), field({ selected: [0] }))).toBe('change');
    expect(replayFor('select', field({ selected: [] }), field({ selected: [0] }))).toBe('change');
  });

  it('replays a chosen file as a change (a file picker has no served value)', () => {
    expect(replayFor('file', field({ files: 1 }), field({}))).toBe('change');
  });
});
