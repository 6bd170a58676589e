/**
 * Text written into the files people and platforms open (src/server/services/export-text.ts): only
 * the characters XML 1.0 allows in an XML feed or a workbook, and no cell a spreadsheet could run
 * as a formula, however it splits a CSV row. Each writer's use of them is tested once in its API
 * test (review exports, the Alchemer export append).
 */
import { describe, expect, it } from 'vitest';
import { csvText, xlsxText, xmlText } from '../../src/server/services/export-text.ts';

describe('xmlText', () => {
  it('keeps what XML 1.0 allows (tab, LF, CR, emoji, U+FFFD), turns U+000B and U+000C into line feeds, drops other controls, U+FFFE, U+FFFF and lone surrogates', () => {
    expect(xmlText('tab\tline\nreturn\r😀 é \ufffd')).toBe('tab\tline\nreturn\r😀 é \ufffd');
    expect(xmlText('one\u000btwo\u000cthree')).toBe('one\ntwo\nthree');
    expect(xmlText('a\u0000b\u0001c\u001fd\ufffee\uffff')).toBe('abcde');
    expect(xmlText('lone \ud800high and \udc00low')).toBe('lone high and low');
  });
});

describe('the formula guard', () => {
  it('marks a text cell that starts like a formula, in either width, and after tab, CR or LF', () => {
    for (const text of ['=1+1', '+1', '-2', '@SUM(A1)', '\t=1', '\r=1', '\n=1', '＝1+1', '＋1', '－1', '＠SUM(A1)'])
      expect(csvText(text).startsWith("'"), JSON.stringify(text)).toBe(true);
    expect(csvText('=HYPERLINK("http://x.example","y")')).toBe(`'=HYPERLINK("http://x.example","y")`);
    for (const text of ['plain', ' =1 (a space first)', 'a-b', 'x@example.org', '']) expect(csvText(text)).toBe(text);
  });

  it('CSV: marks a part that a `;` or `,` spreadsheet, or a line break, would start with a formula; leaves numbers and `;-)` alone', () => {
    expect(csvText('x;=1+1')).toBe("x;'=1+1");
    expect(csvText('x,@SUM(A1)')).toBe("x,'@SUM(A1)");
    expect(csvText("first line\n=cmd|' /C calc'!A0")).toBe("first line\n'=cmd|' /C calc'!A0");
    expect(csvText('a\r\n-cmd')).toBe("a\r\n'-cmd");
    expect(csvText('a\t+1+cmd')).toBe("a\t'+1+cmd");
    expect(csvText('a;＝1')).toBe("a;'＝1");
    expect(csvText('=1;=2')).toBe("'=1;'=2");
    for (const text of ['Score 5;-3', 'from +4,-1.5;+2', 'Nice;-) really', 'well ;+)', 'a, -b', 'a; =b']) expect(csvText(text)).toBe(text);
    expect(csvText('x;-3y')).toBe("x;'-3y");
  });

  it('XLSX: XML 1.0 characters, and a leading mark only (a cell is never split)', () => {
    expect(xlsxText('=2+2')).toBe("'=2+2");
    expect(xlsxText('x;=1+1')).toBe('x;=1+1');
    expect(xlsxText('\u000b=1\ufffe')).toBe("'\n=1");
  });
});
