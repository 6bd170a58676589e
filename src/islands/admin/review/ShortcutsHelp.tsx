/**
 * The review screen's keyboard shortcuts: the key hint shown on buttons (`Kbd`, hidden from
 * screen readers: the buttons carry `aria-keyshortcuts`), the "Keyboard shortcuts" dialog (`?`),
 * and the document-wide listener that routes keys through `shortcutFor`.
 */
import { useEffect, useRef } from 'react';
import { m } from '../../../shared/i18n.ts';
import { cn } from '../../../lib/utils.ts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { SHORTCUTS, shortcutFor, type KeyTarget, type ShortcutAction } from './shortcuts.ts';

/** A key as a small key cap, shown where there is a keyboard (not on phones and touch screens); decoration (the control names its shortcut with `aria-keyshortcuts`). */
export function Kbd({ children, className }: { children: string; className?: string }) {
  return (
    <kbd
      aria-hidden="true"
      className={cn('hidden rounded border border-current/30 px-1.5 font-mono text-[0.7rem] leading-4 opacity-80 sm:pointer-fine:inline-block', className)}
    >
      {children}
    </kbd>
  );
}

/** The "Keyboard shortcuts" dialog. */
export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{m.review_shortcuts_title()}</DialogTitle>
          <DialogDescription>{m.review_shortcuts_description()}</DialogDescription>
        </DialogHeader>
        <table className="w-full text-sm">
          <caption className="sr-only">{m.review_shortcuts_caption()}</caption>
          <thead>
            <tr className="border-b border-border text-start text-xs tracking-wide text-muted-foreground uppercase">
              <th scope="col" className="py-2 pe-4 font-semibold">
                {m.review_shortcuts_key()}
              </th>
              <th scope="col" className="py-2 font-semibold">
                {m.review_shortcuts_action()}
              </th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.key} className="border-b border-border last:border-0">
                <td className="py-2 pe-4">
                  <kbd className="inline-block min-w-7 rounded border border-border bg-muted px-2 py-0.5 text-center font-mono text-sm">{shortcut.key}</kbd>
                </td>
                <td className="py-2">{shortcut.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </DialogContent>
    </Dialog>
  );
}

const OVERLAYS = '[role="dialog"],[role="alertdialog"],[role="menu"],[role="listbox"]';

/** What `shortcutFor` needs to know about the element a key was pressed in. */
function targetOf(node: EventTarget | null): KeyTarget | null {
  const overlayOpen = document.querySelector('[role="dialog"][data-state="open"],[role="alertdialog"][data-state="open"]') !== null;
  if (!(node instanceof Element)) return { tagName: 'body', inOverlay: overlayOpen };
  return {
    tagName: node.tagName,
    type: node instanceof HTMLInputElement ? node.type : null,
    isContentEditable: node instanceof HTMLElement && node.isContentEditable,
    role: node.getAttribute('role'),
    inOverlay: overlayOpen || node.closest(OVERLAYS) !== null,
  };
}

/** Routes the document's key presses to `onAction` while `enabled`; the key's default is prevented when it is a shortcut. */
export function useShortcuts(onAction: (action: ShortcutAction) => void, enabled = true): void {
  const latest = useRef(onAction);
  latest.current = onAction;
  useEffect(() => {
    if (!enabled) return;
    function onKeyDown(event: KeyboardEvent) {
      const action = shortcutFor({
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        repeat: event.repeat,
        defaultPrevented: event.defaultPrevented,
        target: targetOf(event.target),
      });
      if (!action) return;
      event.preventDefault();
      latest.current(action);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
