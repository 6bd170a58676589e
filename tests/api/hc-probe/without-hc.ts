import type { AppType } from '../../../src/server/app.ts';

export type Probe = AppType extends object ? true : false;
