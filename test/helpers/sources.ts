import fs from 'node:fs';
import path from 'node:path';

/**
 * The source-reading tools of the specs that check the server's shape (layering, the module order, table owners):
 * every `.ts`/`.tsx` file under a folder, and a file's relative imports. Type-only and dynamic imports count.
 */
export function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every relative import of `file` (static, type-only and dynamic), resolved to a path. */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((m) => m[1]);
  return specs.map((spec) => path.resolve(path.dirname(file), spec));
}
