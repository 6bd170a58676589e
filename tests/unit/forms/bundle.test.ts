import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const formsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src/shared/forms');

/** The modules a file loads at run time (`import type` and `export type` left out), followed recursively. */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const statements = /^\s*(?:import|export)\s+(type\s+)?(?:[\s\S]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statements)) {
    if (match[1]) continue;
    const specifier = match[2] as string;
    if (specifier.startsWith('.')) runtimeImports(resolve(dirname(file), specifier), seen);
    else seen.add(specifier);
  }
  return seen;
}

describe("the renderer's modules stay zod-free", () => {
  it.each(['logic.ts', 'validate.ts', 'order.ts', 'constants.ts'])('%s loads neither zod nor definition.ts at run time', (name) => {
    const loaded = [...runtimeImports(resolve(formsDir, name))];
    expect(loaded.filter((module) => module === 'zod' || module.startsWith('zod/'))).toEqual([]);
    expect(loaded.filter((module) => module.endsWith('definition.ts'))).toEqual([]);
  });

  it('the check itself sees zod where it is loaded', () => {
    expect([...runtimeImports(resolve(formsDir, 'publish.ts'))]).toContain('zod');
  });
});
