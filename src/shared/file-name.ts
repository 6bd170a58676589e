/** A download's file name from a title: "Pet survey 2026!" → "pet-survey-2026" (accents dropped, 80 characters at most; `fallback` when nothing is left). */
export function fileNameSlug(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || fallback;
}
