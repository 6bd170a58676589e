/// <reference types="astro/client" />

interface ImportMetaEnv {
  /** Google Analytics 4 measurement id (build time); analytics stays off entirely without it. */
  readonly PUBLIC_GA_ID?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
