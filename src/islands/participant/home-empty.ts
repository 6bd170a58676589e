/**
 * A new participant's home shows its empty state as soon as the answer of `GET /api/home` that the
 * page's <head> asked for (src/platform/early.ts) says there is nothing yet, before React has
 * loaded: this inline script (in BaseLayout's <head> after the early data's, hashed into the CSP
 * like the others; so the mark can be there by the first paint) marks <html> with
 * `data-home-empty`, and Home's loading state, which holds the empty state hidden, shows it in
 * place of the skeleton (Tailwind's `in-data-home-empty:` variant). React's first render of that
 * answer puts the same card in the same place. Not for moderators and admins, nor with
 * announcements: their cards come above it, at a height not known before.
 *
 * The script reads a copy of the answer (`clone()`): the answer itself is still taken by `api()`.
 */
import { EARLY_GLOBAL } from '../../platform/early.ts';

/** The mark on <html>; Home.tsx's `in-data-home-empty:` classes name it. */
export const HOME_EMPTY_MARK = 'data-home-empty';

export const HOME_EMPTY_INLINE_SCRIPT =
  `(function(){var x=(window.${EARLY_GLOBAL}||{})['/api/home'];if(!x)return;function n(a){return Array.isArray(a)&&a.length===0}` +
  `x.r.then(function(r){return r&&r.ok?r.clone().json():null}).then(function(h){` +
  `if(h&&!h.staff&&n(h.todo)&&n(h.submitted)&&n(h.done)&&n(h.announcements))document.documentElement.setAttribute('${HOME_EMPTY_MARK}','')}).catch(function(){})})()`;
