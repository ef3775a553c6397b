import fs from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The typeface of the printed lists (issue 36 §2): DejaVu Sans, from the `dejavu-fonts-ttf` package (loaded from
 * node_modules at run time, embedded into each PDF, subset to the glyphs used). PDF's standard fonts have no
 * Vietnamese letters (ạ, ữ, đ …: they would print as gaps or wrong glyphs); DejaVu Sans covers Vietnamese entirely,
 * ₫ included. Read once per process, at the first list printed.
 */
const require = createRequire(import.meta.url);
let loaded: Promise<{ regular: Buffer; bold: Buffer }> | undefined;

export function listFonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  loaded ??= Promise.all([
    fs.readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    fs.readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]).then(([regular, bold]) => ({ regular, bold }));
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
