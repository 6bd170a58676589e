/**
 * Care for what the outbox keeps: persistent storage asked for on the first capture, a warning
 * when the browser's estimate says space is short, and on iPhones and iPads the plain note that
 * Safari may clear a site's data after 7 days without a visit unless it is on the home screen.
 */
import { m } from '../../../shared/i18n.ts';

/** Warn under this much free space, or over this share used. */
export const LOW_FREE_BYTES = 200 * 1024 * 1024;
export const HIGH_USED_SHARE = 0.9;

export function isAppleMobile(userAgent: string, maxTouchPoints = 0): boolean {
  // iPadOS says "Macintosh" but has a touch screen.
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

export function spaceIsShort(estimate: { quota?: number; usage?: number }): boolean {
  if (!estimate.quota) return false;
  const usage = estimate.usage ?? 0;
  return estimate.quota - usage < LOW_FREE_BYTES || usage / estimate.quota > HIGH_USED_SHARE;
}

let asked = false;

/** On a capture: asks once for persistent storage; the notes to show (space short, the iPhone rule). */
export async function careForStorage(nav: Navigator | undefined = typeof navigator === 'undefined' ? undefined : navigator): Promise<string[]> {
  const notes: string[] = [];
  const storage = nav?.storage;
  let persisted = false;
  try {
    if (storage?.persist && !asked) {
      asked = true;
      persisted = (await storage.persisted?.()) || (await storage.persist());
    } else if (storage?.persisted) {
      persisted = await storage.persisted();
    }
    if (storage?.estimate && spaceIsShort(await storage.estimate())) notes.push(m.outbox_storage_low());
  } catch {
    // No answer about storage: nothing to say.
  }
  const standalone = typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
  if (nav && isAppleMobile(nav.userAgent, nav.maxTouchPoints) && !standalone && !persisted) notes.push(m.outbox_ios_note());
  return notes;
}
