/** `Riverside Hôtel & Spa` → `riverside-hotel-spa`. */
export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/gi, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : `partner${slug ? `-${slug}` : ''}`;
}
