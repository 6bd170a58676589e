/**
 * The link check of the token pages (/onboarding/{token}, /reset-password/{token},
 * /update-email/{token}) — GET /api/tokens/verify for the token in the address — without React.
 *
 * The two guest token pages load no React at start (docs/decisions/027-hydration-on-intent.md):
 * their states are prerendered (`components/TokenCheck.astro`: checking, invalid, failed, valid)
 * and `startTokenPage` (started by `app/token-pages.ts` on every page load that has one) checks the
 * link and shows the right one, writing the few words that depend on the link (the address, the
 * greeting) into the prerendered form. That form is an island hydrated on intent: its first render
 * reads the same link (`validToken`), so it matches what the page already shows.
 */
import type { TokenType } from '../shared/tokens.ts';
import { ApiError, apiGet, withQuery, type TokenInfo } from '../platform/api.ts';
import { m } from '../shared/i18n.ts';
import { errorMessage } from './form-errors.ts';

/** The token from the address bar (the page is a prerendered shell for every token). */
export function tokenFromLocation(): string | null {
  const last = location.pathname.replace(/\/+$/, '').split('/').pop();
  if (!last) return null;
  try {
    const token = decodeURIComponent(last);
    return token === '' || token === '_' ? null : token;
  } catch {
    return null;
  }
}

export type TokenCheck =
  | { status: 'checking' }
  | { status: 'valid'; token: string; info: TokenInfo }
  /** Unknown, used or expired. */
  | { status: 'invalid' }
  /** An invitation already used by an account that is set up now (404 `invitation_used`): sign in. */
  | { status: 'used' }
  | { status: 'error'; message: string };

/** GET /api/tokens/verify for the address bar's token: valid, invalid, used (an invitation), or an error worth a retry. */
export async function checkToken(type: TokenType, signal?: AbortSignal): Promise<Exclude<TokenCheck, { status: 'checking' }>> {
  const token = tokenFromLocation();
  if (!token) return { status: 'invalid' };
  try {
    const info = await apiGet<TokenInfo>(withQuery('/api/tokens/verify', { token, type }), signal ? { signal } : {});
    return info.valid === true && info.type === type ? { status: 'valid', token, info } : { status: 'invalid' };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invitation_used') return { status: 'used' };
    if (error instanceof ApiError && (error.status === 404 || error.status === 400 || error.code === 'invalid_token')) return { status: 'invalid' };
    return { status: 'error', message: errorMessage(error) };
  }
}

/** The link `startTokenPage` found valid on this page (null before, and when prerendering). */
let valid: { token: string; info: TokenInfo } | null = null;

/** For the form island's first render: the valid link this page shows, if any. */
export function validToken(): { token: string; info: TokenInfo } | null {
  return valid;
}

/** The onboarding greeting ("Hello Ada!"), written the same by the page and by its form. */
export function greetingFor(info: TokenInfo | null): string {
  const name = info?.firstName.trim() ?? '';
  return name ? m.common_greeting_name({ name }) : m.common_greeting();
}

/**
 * The words and parts of the prerendered form that depend on the link, set as the form island
 * renders them (so that its hydration matches): `[data-token-text="email|greeting"]`, the
 * password managers' hidden username, the name defaults, and the parts only some accounts need
 * (`[data-token-needs="name|terms"]`).
 */
function fillForm(root: HTMLElement, info: TokenInfo): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-token-text]')) {
    element.textContent = element.dataset.tokenText === 'greeting' ? greetingFor(info) : info.email;
  }
  for (const input of root.querySelectorAll<HTMLInputElement>('input[name="username"]')) input.defaultValue = info.email;
  for (const [name, value] of [
    ['firstName', info.firstName],
    ['lastName', info.lastName],
  ] as const) {
    const input = root.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    if (input && input.value === input.defaultValue) input.defaultValue = value;
  }
  for (const part of root.querySelectorAll<HTMLElement>('[data-token-needs]')) {
    part.hidden = part.dataset.tokenNeeds === 'name' ? !info.needsName : !info.needsTerms;
  }
}

/** Shows one of the prerendered states (`[data-token-state]`) and hides the others; a page without a "used" state shows "invalid". */
function show(root: HTMLElement, state: TokenCheck['status']): void {
  const shown = state === 'used' && !root.querySelector('[data-token-state="used"]') ? 'invalid' : state;
  for (const part of root.querySelectorAll<HTMLElement>('[data-token-state]')) part.hidden = part.dataset.tokenState !== shown;
}

/** Checks the link of a prerendered token page (`components/TokenCheck.astro`) and shows its state; "Try again" checks again. */
export function startTokenPage(root: HTMLElement): void {
  if (root.dataset.tokenStarted !== undefined) return;
  root.dataset.tokenStarted = '';
  const type = root.dataset.tokenCheck as TokenType;
  const run = async (): Promise<void> => {
    show(root, 'checking');
    const check = await checkToken(type);
    if (!root.isConnected) return;
    if (check.status === 'valid') {
      valid = { token: check.token, info: check.info };
      fillForm(root, check.info);
    } else if (check.status === 'error') {
      const message = root.querySelector<HTMLElement>('[data-token-error]');
      if (message) message.textContent = check.message;
    }
    show(root, check.status);
  };
  root.querySelector('[data-token-retry]')?.addEventListener('click', () => void run());
  void run();
}
