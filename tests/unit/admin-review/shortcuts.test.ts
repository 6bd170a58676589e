import { describe, expect, it } from 'vitest';
import { isTypingTarget, keyOf, SHORTCUTS, shortcutFor, type KeyPress, type KeyTarget } from '../../../src/islands/admin/review/shortcuts.ts';

const body: KeyTarget = { tagName: 'BODY' };
const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({ key, target: body, ...extra });

describe('shortcutFor', () => {
  it('routes each documented key to its action', () => {
    expect(shortcutFor(press('j'))).toBe('next');
    expect(shortcutFor(press('k'))).toBe('previous');
    expect(shortcutFor(press('a'))).toBe('approve');
    expect(shortcutFor(press('c'))).toBe('request_changes');
    expect(shortcutFor(press('r'))).toBe('reject');
    expect(shortcutFor(press('n'))).toBe('note');
    expect(shortcutFor(press('?'))).toBe('help');
  });

  it('ignores other keys, upper case (Shift) and keys with Ctrl, ⌘ or Alt held', () => {
    expect(shortcutFor(press('x'))).toBeNull();
    expect(shortcutFor(press('Enter'))).toBeNull();
    expect(shortcutFor(press('A'))).toBeNull();
    expect(shortcutFor(press('a', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('r', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press('j', { altKey: true }))).toBeNull();
  });

  it('never fires while typing in a field', () => {
    for (const target of [
      { tagName: 'INPUT', type: 'text' },
      { tagName: 'input', type: 'search' },
      { tagName: 'INPUT', type: 'date' },
      { tagName: 'INPUT' },
      { tagName: 'TEXTAREA' },
      { tagName: 'SELECT' },
      { tagName: 'DIV', isContentEditable: true },
      { tagName: 'DIV', role: 'textbox' },
      { tagName: 'BUTTON', role: 'combobox' },
    ] satisfies KeyTarget[]) {
      expect(shortcutFor(press('a', { target })), JSON.stringify(target)).toBeNull();
      expect(shortcutFor(press('j', { target })), JSON.stringify(target)).toBeNull();
    }
  });

  it('fires from buttons, checkboxes and links (no text is typed there)', () => {
    expect(shortcutFor(press('a', { target: { tagName: 'BUTTON' } }))).toBe('approve');
    expect(shortcutFor(press('j', { target: { tagName: 'BUTTON', role: 'checkbox' } }))).toBe('next');
    expect(shortcutFor(press('j', { target: { tagName: 'INPUT', type: 'checkbox' } }))).toBe('next');
    expect(shortcutFor(press('k', { target: { tagName: 'A' } }))).toBe('previous');
  });

  it('stays out of dialogs, menus and popup lists (the lightbox, the help, a Select’s options)', () => {
    expect(shortcutFor(press('a', { target: { tagName: 'BUTTON', inOverlay: true } }))).toBeNull();
    expect(shortcutFor(press('j', { target: { tagName: 'DIV', role: 'option' } }))).toBeNull();
    expect(shortcutFor(press('a', { target: { tagName: 'DIV', role: 'listbox' } }))).toBeNull();
    expect(shortcutFor(press('?', { target: { tagName: 'BODY', inOverlay: true } }))).toBeNull();
  });

  it('lets j and k repeat while held, never a decision', () => {
    expect(shortcutFor(press('j', { repeat: true }))).toBe('next');
    expect(shortcutFor(press('k', { repeat: true }))).toBe('previous');
    expect(shortcutFor(press('a', { repeat: true }))).toBeNull();
    expect(shortcutFor(press('r', { repeat: true }))).toBeNull();
  });

  it('leaves a key that something else already handled', () => {
    expect(shortcutFor(press('a', { defaultPrevented: true }))).toBeNull();
  });

  it('works without a target (focus on nothing)', () => {
    expect(shortcutFor({ key: 'j', target: null })).toBe('next');
  });
});

describe('isTypingTarget', () => {
  it('is false for non-text inputs and plain elements', () => {
    for (const type of ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'])
      expect(isTypingTarget({ tagName: 'INPUT', type })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('SHORTCUTS', () => {
  it('has one entry per key and per action, each with words for the help', () => {
    expect(new Set(SHORTCUTS.map((shortcut) => shortcut.key)).size).toBe(SHORTCUTS.length);
    expect(new Set(SHORTCUTS.map((shortcut) => shortcut.action)).size).toBe(SHORTCUTS.length);
    for (const shortcut of SHORTCUTS) expect(shortcut.label.length).toBeGreaterThan(5);
    expect(keyOf('approve')).toBe('a');
    expect(keyOf('help')).toBe('?');
  });
});
