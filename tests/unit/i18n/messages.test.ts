import { describe, expect, it } from 'vitest';
import { checkMessages } from '../../../scripts/messages.ts';

describe('the messages (issue 31)', () => {
  it('are complete in every language, used, with the same placeholders and every plural form', () => {
    expect(checkMessages()).toEqual([]);
  });
});
