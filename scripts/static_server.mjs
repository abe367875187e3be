// A small static file server for the built page, bound to 127.0.0.1 only.
//   node scripts/static_server.mjs DIR [PORT]      (PORT 0 picks a free one)
// Also imported by the browser tests. Serves .wasm as application/wasm so streaming
// compilation works; no caching headers, so a rebuild shows up on reload. With `isolated`
// (the default) it sends COOP/COEP, so the page is cross-origin isolated and its This machine
// panel measures on every core (the threaded probe module needs SharedArrayBuffer). `typeFor`
// overrides a type by extension (a test's misconfigured host: {'.wasm': 'application/octet-stream'}).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
};

export function startServer(dir, port = 0, host = '127.0.0.1', isolated = true, typeFor = {}) {
  const isolation = isolated
    ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }
    : {};
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw Object.assign(new Error('outside root'), { code: 'ENOENT' });
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': typeFor[extname(file)] ?? types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store',
                           ...isolation });
      res.end(body);
    } catch (e) {
      res.writeHead(e.code === 'ENOENT' || e.code === 'EISDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end(e.code === 'ENOENT' ? 'not found\n' : 'error\n');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolvePromise({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, port] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/static_server.mjs DIR [PORT]');
    process.exit(2);
  }
  try {
    const { url } = await startServer(dir, Number(port ?? 8080));
    console.log(`gpuplan is served at ${url}  (Ctrl-C stops)`);
  } catch (e) {
    console.error(`cannot serve on port ${port ?? 8080}: ${e.message}`);
    process.exit(1);
  }
}
