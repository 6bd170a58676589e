/** Our client directives (builds/directives.ts), for `astro check` and editors. */
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate the cookie banner at once for a first visit, else when "Cookie settings" asks for it. */
    'client:consent'?: boolean;
    /** Hydrate a guest's form when the visitor reaches for it; `"signed-in ?token"`: at once too for a signed-in visitor, for an address with `?token=`. */
    'client:intent'?: boolean | string;
    /** Hydrate the toaster at the first toast or F8. */
    'client:toast'?: boolean;
    /** Hydrate the re-authentication dialog when a call first asks the person to confirm it's them. */
    'client:reauth'?: boolean;
    /** `client:idle`, hydrated once however often navigations move the (persisted) island. */
    'client:idle-once'?: boolean;
  }
}
