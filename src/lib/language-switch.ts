/**
 * What the language switcher does (issue 31; src/components/LanguageSwitcher.astro): the choice is
 * remembered on the device (LANGUAGE_COOKIE, which the Node server reads too), a signed-in
 * person's is saved as their account's language (`PUT /api/account/language`: every device then
 * opens in it), and this page opens again in that language — a full page load, since every island
 * on screen was rendered in the old one.
 */
import { apiSend } from '../platform/api.ts';
import { $auth } from '../stores/auth.ts';
import { languageCookie, relocalize, type Language } from '../shared/languages.ts';
import { m } from '../shared/i18n.ts';
import { toast } from '../stores/toasts.ts';

/**
 * Remembers a language, saves it to the account when signed in (unless `saved`: the preferences
 * screen's save already did), and opens this page in it.
 */
export async function goToLanguage(language: Language, options: { saved?: boolean } = {}): Promise<void> {
  document.cookie = languageCookie(language, location.protocol === 'https:');
  if (!options.saved && $auth.get().status === 'authenticated') {
    try {
      await apiSend('PUT', '/api/account/language', { language });
    } catch {
      toast({ title: m.languages_switch_failed(), variant: 'destructive' });
      return;
    }
  }
  location.assign(relocalize(`${location.pathname}${location.search}${location.hash}`, language));
}
