import { describe, expect, it } from 'vitest';
import { itemErrors } from '../../src/components/admin/field-errors';

describe('itemErrors', () => {
  it("keeps one list's item messages by index, and nothing of other fields or nested paths", () => {
    const errors = { name: 'Must not be empty', 'benefits.0': 'Must not be empty', 'benefits.12': 'Too long', benefitsX: 'x', 'benefits.1.title': 'nested', 'benefits.a': 'not an index' };
    expect(itemErrors(errors, 'benefits')).toEqual({ 0: 'Must not be empty', 12: 'Too long' });
    expect(itemErrors(errors, 'suitableFor')).toEqual({});
  });
});
