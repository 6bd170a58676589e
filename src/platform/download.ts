import type { MouseEvent } from 'react';
import { api } from './api.ts';

/**
 * A plain-link download of personal data (the users CSV, the answers and responses exports) needs
 * a sign-in proof under 15 minutes old, as every sensitive call does (issue 29 §4). The link itself
 * cannot wait for the re-authentication dialog, so its click asks `GET /api/account/sign-in-proof`
 * first, through the API client (a 403 `reauth_required` opens the dialog and asks again once it is
 * answered), then follows the link as it was (its `download` attribute and all). Given up or
 * failed: the link is not followed; the dialog or the client has said why.
 */
export function downloadAfterSignInProof(event: MouseEvent<HTMLAnchorElement>, onConfirmed?: () => void): void {
  const link = event.currentTarget;
  if (link.dataset.signInProof === 'confirmed') {
    delete link.dataset.signInProof;
    onConfirmed?.();
    return;
  }
  event.preventDefault();
  api<{ ok: true }>('GET', '/api/account/sign-in-proof').then(
    () => {
      link.dataset.signInProof = 'confirmed';
      link.click();
    },
    () => {},
  );
}
