/**
 * The build watcher's state (docs/product.md §4, docs/architecture.md "Build manifests"): the build this page
 * runs (the id of builds/latest.json at first load), the newest id seen since, and that build's
 * meta (route rules, prerendered pages).
 */
import { atom } from 'nanostores';
import type { BuildMeta } from '../shared/build-manifest.ts';

export interface BuildState {
  running: string | null;
  latest: string | null;
  meta: BuildMeta | null;
}

export const $build = atom<BuildState>({ running: null, latest: null, meta: null });

/** True when a newer build than the running one is out. */
export function isOutdated(state: BuildState = $build.get()): boolean {
  return state.running !== null && state.latest !== null && state.latest !== state.running;
}
