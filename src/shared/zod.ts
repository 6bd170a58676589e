/**
 * zod, configured for where it runs. Every runtime import of zod in code the browser bundles
 * (`src/shared`, islands, components) goes through this module, so the configuration is in place
 * before any schema is built or parsed.
 *
 * In the browser zod's JIT is off (`jitless`): its first parse probes `new Function('')`, which our
 * CSP (no `unsafe-eval`) refuses and reports as a violation on every page. The server keeps the
 * JIT, its faster path for object schemas.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
