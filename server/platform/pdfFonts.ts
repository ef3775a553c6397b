import fs from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The typeface of the server's printed documents (issue 36: the night's lists, the gift voucher): DejaVu Sans, from the `dejavu-fonts-ttf` package (loaded from
 * node_modules at run time, embedded into each PDF, subset to the glyphs used). PDF's standard fonts have no
 * Vietnamese letters (ạ, ữ, đ …: they would print as gaps or wrong glyphs); DejaVu Sans covers Vietnamese entirely,
 * ₫ included. Read once per process, at the first document printed.
 */
const require = createRequire(import.meta.url);
let loaded: Promise<{ regular: Buffer; bold: Buffer }> | undefined;

export function pdfFonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  loaded ??= Promise.all([
    fs.readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    fs.readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]).then(([regular, bold]) => ({ regular, bold }));
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
