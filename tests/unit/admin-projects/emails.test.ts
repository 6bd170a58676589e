import { describe, expect, it } from 'vitest';
import { chunk, emailsFromRows, mergeAddResults, parseEmailText } from '../../../src/islands/admin/projects/emails.ts';

describe('parseEmailText', () => {
  it('cuts on commas, semicolons, tabs, spaces and new lines, lower-cased, each once', () => {
    expect(parseEmailText('Ada@Example.org, grace@example.org;alan@example.org\n\tkatherine@example.org  ada@example.org\r\nmary@example.org')).toEqual([
      'ada@example.org',
      'grace@example.org',
      'alan@example.org',
      'katherine@example.org',
      'mary@example.org',
    ]);
  });

  it('takes the address of "Name <address>" and drops names beside addresses', () => {
    expect(parseEmailText('Ada Lovelace <ada@example.org>, "Hopper, Grace" <grace@example.org>\nAlan Turing alan@example.org')).toEqual([
      'ada@example.org',
      'grace@example.org',
      'alan@example.org',
    ]);
  });

  it('strips mailto:, quotes and trailing punctuation', () => {
    expect(parseEmailText('mailto:ada@example.org. "grace@example.org" (alan@example.org):')).toEqual([
      'ada@example.org',
      'grace@example.org',
      'alan@example.org',
    ]);
  });

  it('keeps a piece without any @ so that the API can list it as invalid', () => {
    expect(parseEmailText('ada.example.org\ngrace@example.org')).toEqual(['ada.example.org', 'grace@example.org']);
  });

  it('gives nothing for blank text', () => {
    expect(parseEmailText(' \n ,; \t')).toEqual([]);
  });
});

describe('emailsFromRows', () => {
  it('finds the column by its header and skips the header', () => {
    const rows = [
      ['Name', 'E-mail', 'City'],
      ['Ada', 'ada@example.org', 'London'],
      ['Grace', 'GRACE@example.org', 'New York'],
      ['Empty', '', 'Paris'],
    ];
    expect(emailsFromRows(rows)).toEqual({ emails: ['ada@example.org', 'grace@example.org'], column: 1, header: 'E-mail' });
  });

  it('finds the column by content when no header names it, with or without a header row', () => {
    expect(
      emailsFromRows([
        ['Ada', 'ada@example.org'],
        ['Grace', 'grace@example.org'],
      ]),
    ).toEqual({ emails: ['ada@example.org', 'grace@example.org'], column: 1, header: null });
    expect(
      emailsFromRows([
        ['who', 'contact'],
        ['Ada', 'ada@example.org'],
        ['Grace', 'a typo'],
      ]),
    ).toEqual({ emails: ['ada@example.org', 'a typo'], column: 1, header: 'contact' });
  });

  it('prefers the column with the most addresses', () => {
    const rows = [
      ['x@example.org', 'ada@example.org'],
      ['', 'grace@example.org'],
    ];
    expect(emailsFromRows(rows).column).toBe(1);
  });

  it('says when no column holds addresses', () => {
    expect(emailsFromRows([['Name'], ['Ada']])).toEqual({ emails: [], column: null, header: null });
    expect(emailsFromRows([])).toEqual({ emails: [], column: null, header: null });
  });
});

describe('chunk and mergeAddResults', () => {
  it('cuts a list into slices of at most the size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
  });

  it('merges the answers of several calls, keeping invited only when some call had it', () => {
    const merged = mergeAddResults([
      { added: ['a@x.org'], alreadyMembers: [], unknown: ['u@x.org'], invalid: ['bad'] },
      { added: ['b@x.org'], alreadyMembers: ['c@x.org'], unknown: [], invalid: [] },
    ]);
    expect(merged).toEqual({ added: ['a@x.org', 'b@x.org'], alreadyMembers: ['c@x.org'], unknown: ['u@x.org'], invalid: ['bad'] });
    expect(mergeAddResults([{ added: [], alreadyMembers: [], unknown: [], invalid: [], invited: ['u@x.org'] }]).invited).toEqual(['u@x.org']);
  });
});
