/**
 * The review screen's keyboard shortcuts, as pure rules: which key does what, and when a key is
 * not a shortcut at all (typing in a field, a modifier held, a dialog or a popup list open, an
 * auto-repeated decision key). No React, no DOM access: the screen describes the event's target
 * (`targetOf`) and asks `shortcutFor`.
 */
import { m } from '../../../shared/i18n.ts';

export type ShortcutAction = 'next' | 'previous' | 'approve' | 'request_changes' | 'reject' | 'note' | 'help';

export interface Shortcut {
  key: string;
  action: ShortcutAction;
  /** What it does, for the help dialog (read when shown: in the page's language). */
  readonly label: string;
}

/** Every shortcut, in the order the help lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    key: 'j',
    action: 'next',
    get label() {
      return m.review_shortcut_next();
    },
  },
  {
    key: 'k',
    action: 'previous',
    get label() {
      return m.review_shortcut_previous();
    },
  },
  {
    key: 'a',
    action: 'approve',
    get label() {
      return m.review_shortcut_approve();
    },
  },
  {
    key: 'c',
    action: 'request_changes',
    get label() {
      return m.review_shortcut_request_changes();
    },
  },
  {
    key: 'r',
    action: 'reject',
    get label() {
      return m.review_shortcut_reject();
    },
  },
  {
    key: 'n',
    action: 'note',
    get label() {
      return m.review_shortcut_note();
    },
  },
  {
    key: '?',
    action: 'help',
    get label() {
      return m.review_shortcut_help();
    },
  },
];

/** The key of an action, for `aria-keyshortcuts` and the hints on the buttons. */
export function keyOf(action: ShortcutAction): string {
  return SHORTCUTS.find((shortcut) => shortcut.action === action)?.key ?? '';
}

/** What the screen knows about the element a key was pressed in. */
export interface KeyTarget {
  /** Upper- or lower-case tag name (`INPUT`, `textarea`, …). */
  tagName: string;
  /** An input's `type` (lower-case), when it is an input. */
  type?: string | null;
  isContentEditable?: boolean;
  /** The element's own `role` attribute, if any. */
  role?: string | null;
  /** Inside an open dialog, menu or popup list (the lightbox, the help, a Select's options…). */
  inOverlay?: boolean;
}

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The key is held down and the browser repeats it. */
  repeat?: boolean;
  /** Something already handled the key. */
  defaultPrevented?: boolean;
  target: KeyTarget | null;
}

/** Input types where a letter is not typed (a letter there can be a shortcut). */
const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'range', 'color', 'file']);
/** Roles of widgets that take letters themselves (typing, type-ahead). */
const TYPING_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'listbox',
  'option',
  'menu',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'slider',
  'grid',
  'tree',
  'treeitem',
]);

/** True when a key pressed in `target` is meant for the field itself (text, a list's type-ahead…). */
export function isTypingTarget(target: KeyTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return !NON_TEXT_INPUTS.has((target.type ?? 'text').toLowerCase());
  return target.role ? TYPING_ROLES.has(target.role.toLowerCase()) : false;
}

/** Keys that act on the entry: never on an auto-repeat, so holding `a` approves one entry, not a page. */
const ONCE: ReadonlySet<ShortcutAction> = new Set(['approve', 'request_changes', 'reject', 'note', 'help']);

/**
 * The action of a key press, or null when it is not a shortcut: another key, Ctrl/⌘/Alt held
 * (browser and system shortcuts stay theirs), typing in a field, inside a dialog or popup, already
 * handled, or an auto-repeat of a key that decides.
 */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  if (press.defaultPrevented || press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.target?.inOverlay || isTypingTarget(press.target)) return null;
  const shortcut = SHORTCUTS.find((candidate) => candidate.key === press.key);
  if (!shortcut) return null;
  if (press.repeat && ONCE.has(shortcut.action)) return null;
  return shortcut.action;
}
