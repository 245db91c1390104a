// prepack: copies runsvc's protos (../../proto/runsvc/v1/*.proto) into
// proto/ so the packed tarball works outside the repository; postpack
// (`node scripts/bundle-protos.js --clean`) removes the copy again, so the
// repository's proto/ stays the one source.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(pkg, 'proto');
fs.rmSync(out, { recursive: true, force: true });
if (process.argv[2] !== '--clean') {
  const src = path.resolve(pkg, '..', '..', 'proto', 'runsvc', 'v1');
  const dst = path.join(out, 'runsvc', 'v1');
  fs.mkdirSync(dst, { recursive: true });
  const files = fs.readdirSync(src).filter((f) => f.endsWith('.proto'));
  if (files.length === 0) throw new Error(`no protos in ${src}`);
  for (const f of files) fs.copyFileSync(path.join(src, f), path.join(dst, f));
  console.log(`bundled ${files.length} protos into proto/runsvc/v1`);
}
