import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and resolves conflicting Tailwind utilities (the later one wins). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its class map at its first call: 15–23 ms on this project's machine, four
 * times that on the phone Lighthouse simulates. Left to the first render that merges (a skeleton's
 * `Bone`, a form field), it made that render slice one long task. In a browser this module queues
 * the build as a task of its own when it is evaluated, which is before React schedules the first
 * render of the island that imported it, so no render slice carries it (decision 039). The call
 * merges two classes only; every later `cn()` finds the map built.
 */
if (typeof window !== 'undefined') setTimeout(() => twMerge('p-0 p-1'), 0);
