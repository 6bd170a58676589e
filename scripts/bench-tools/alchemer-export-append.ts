/** Part of `npm run bench:tools` (scripts/bench-tools.ts): answers its markdown section. */
export async function measure(): Promise<string> {
  return '(not measured yet)';
}
