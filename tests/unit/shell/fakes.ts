/** Minimal browser fakes for the shell's unit tests (node environment). */
import type { StorageLike } from '../../../src/platform/storage.ts';

export class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** A document.cookie that understands expiry, domain and path the way the analytics code writes them. */
export class CookieJar {
  readonly jar = new Map<string, string>();
  readonly writes: string[] = [];
  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  set cookie(text: string) {
    this.writes.push(text);
    const [pair = '', ...attributes] = text.split(';').map((part) => part.trim());
    const [name = '', value = ''] = pair.split('=');
    const expired = attributes.some((a) => a.toLowerCase() === 'max-age=0' || a.toLowerCase().startsWith('expires=thu, 01 jan 1970'));
    if (expired) this.jar.delete(name);
    else this.jar.set(name, value);
  }
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
