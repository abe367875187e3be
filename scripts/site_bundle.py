#!/usr/bin/env python3
"""The page as a bundle a blog or docs author copies to any static host.

    scripts/site_bundle.py SITE_DIR OUT_DIR [--version 0.1.0]

Copies the wasm build's site folder (build/wasm/site) to OUT_DIR/gpuplan-site-VERSION/ with
content-hashed names for the files that change with each build and are large (index.js,
index.wasm with index.deferred.wasm, the probe modules, catalog-sources.json), so a host may
cache them for a year; the entry points keep their names (index.html, sw.js) and so do the
files the page names at run time from parts (i18n-LANG.json, font-LANG.ttf, preview-*.svg),
which a host revalidates. Every reference to a renamed file is rewritten where it is written
as a quoted literal; a reference that is not found stops the bundle (a changed Emscripten
output must not ship a page that fetches a missing file). Adds the host snippets (_headers for
Netlify and Cloudflare Pages, .htaccess for Apache, nginx.conf), README-HOSTS.md, and writes
OUT_DIR/gpuplan-site-VERSION.tar.gz and .zip. Everything is relative to index.html, so the
folder works from a sub-path (https://example.org/tools/gpuplan/).
"""
import argparse
import gzip
import hashlib
import io
import os
import shutil
import sys
import tarfile
import zipfile

# (file, [(the file that names it, the name as written)]): renamed in this order, so a file is
# hashed after the references inside it are rewritten (index.js names index.wasm).
# index.deferred.wasm is named from index.wasm's name by index.js (name minus ".wasm" plus
# ".deferred.wasm"), so the two share one hash.
RENAMES = [
    ("catalog-sources.json", [("index.js", "catalog-sources.json")]),
    ("probe.wasm", [("probe.js", "probe.wasm")]),
    ("probe.worker.js", [("probe.js", "probe.worker.js")]),
    ("probe-st.wasm", [("probe-st.js", "probe-st.wasm")]),
    ("probe.js", [("index.html", "probe.js")]),
    ("probe-st.js", [("index.html", "probe-st.js")]),
    ("index.wasm", [("index.js", "index.wasm"), ("sw.js", "index.wasm")]),
    ("index.deferred.wasm", [("index.html", "index.deferred.wasm"), ("sw.js", "index.deferred.wasm")]),
    ("index.js", [("index.html", "index.js"), ("sw.js", "index.js")]),
]
OPTIONAL = {"probe.wasm", "probe.worker.js", "probe-st.wasm", "probe.js", "probe-st.js"}
SW_CACHE = "gpuplan-site-1"  # sw.js's cache name: one per bundle, so a deploy replaces the cache

HEADERS = """# Netlify, Cloudflare Pages: response headers for gpuplan (README-HOSTS.md). Paths are
# from the site's root: served from a sub-path, put it in front of each (/tools/gpuplan/sw.js).
/*
  X-Content-Type-Options: nosniff
/
  Cache-Control: no-cache
/index.html
  Cache-Control: no-cache
/sw.js
  Cache-Control: no-cache
{immutable}
# Optional: every core for This machine's CPU probe (cross-origin isolation). Leave it out
# where other sites embed the page in an iframe, unless they send COEP too.
#/*
#  Cross-Origin-Opener-Policy: same-origin
#  Cross-Origin-Embedder-Policy: require-corp
"""

HTACCESS = """# Apache (mod_mime, mod_headers): gpuplan's types and caching (README-HOSTS.md).
AddType application/wasm .wasm
AddType application/javascript .js
AddType application/json .json
AddType image/svg+xml .svg
AddType font/ttf .ttf
<IfModule mod_headers.c>
  Header set X-Content-Type-Options "nosniff"
  Header set Cache-Control "no-cache"
  <FilesMatch "\\.[0-9a-f]{{10}}\\.(deferred\\.)?(js|wasm|json)$">
    Header set Cache-Control "public, max-age=31536000, immutable"
  </FilesMatch>
  # Optional: every core for This machine's CPU probe (see README-HOSTS.md before enabling).
  # Header set Cross-Origin-Opener-Policy "same-origin"
  # Header set Cross-Origin-Embedder-Policy "require-corp"
</IfModule>
<IfModule mod_deflate.c>
  AddOutputFilterByType DEFLATE text/html application/javascript application/json application/wasm image/svg+xml
</IfModule>
"""

NGINX = """# nginx: inside the server block; /tools/gpuplan/ is where the folder is served from.
location /tools/gpuplan/ {{
    # alias /var/www/gpuplan-site-{version}/;
    types {{ application/wasm wasm; application/javascript js; application/json json; image/svg+xml svg; font/ttf ttf; text/html html; }}
    gzip on;
    gzip_types application/wasm application/javascript application/json image/svg+xml;
    add_header X-Content-Type-Options nosniff;
    add_header Cache-Control "no-cache";
    location ~ "\\.[0-9a-f]{{10}}\\.(deferred\\.)?(js|wasm|json)$" {{
        add_header X-Content-Type-Options nosniff;
        add_header Cache-Control "public, max-age=31536000, immutable";
    }}
    # Optional: every core for This machine's CPU probe (see README-HOSTS.md before enabling).
    # add_header Cross-Origin-Opener-Policy same-origin;
    # add_header Cross-Origin-Embedder-Policy require-corp;
}}
"""

README = """# gpuplan {version}: the page, ready for a static host

Copy this folder as it is to any static host or a sub-folder of one
(`https://example.org/tools/gpuplan/`): every file is named relative to `index.html`, nothing is
fetched from another origin, and no server code runs. Open `index.html` (the folder's URL).

## What the host must send

- **`.wasm` as `application/wasm`.** Browsers refuse to compile WebAssembly streamed with another
  type; most hosts already send it (GitHub Pages, Netlify, Cloudflare Pages, nginx >= 1.21,
  Apache with a current `mime.types`). Where yours does not, `.htaccess` (Apache) or
  `nginx.conf` here add it. Served with another type, the loader falls back to compiling from a
  whole download: the page works, starts later, and the console says why.
- **Nothing else is required.** In particular the page needs no cross-origin isolation: it runs
  in a blog's iframe as it is.

## Caching

Files with a content hash in their name ({hashed}) never change: a host may
cache them for a year (`immutable`). The others (`index.html`, `sw.js`, the Japanese message
table and fonts, the embed previews) keep their names from build to build: serve them with
`Cache-Control: no-cache` (revalidate) so a new deploy shows at once. `_headers` (Netlify,
Cloudflare Pages), `.htaccess` (Apache) and `nginx.conf` here say exactly that. After the first
visit the page also works offline (its service worker, `sw.js`).

## Optional: every core for the CPU probe

*This machine* measures the reader's CPU. With the headers
`Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp` the
page is cross-origin isolated and measures on every core (`probe.*.js` with threads); without
them it measures on one. The snippets carry both, commented out: enable them only where the
page is opened directly, since an iframe of a cross-origin-isolated page needs its embedding
page to opt in too.

## Embedding

```html
<iframe src="/tools/gpuplan/#embed=fit&v=1&model=llama-3.1-8b&gpu=rtx-4090"
        width="100%" height="520" style="border:0;max-width:100%" loading="lazy" title="gpuplan"></iframe>
```

The page's *Copy embed code* button gives the frame for the scenario on screen, with a script
that sizes it to its content. For a static site generator, `embed/` here has a snippet each for
Hugo (a shortcode), Jekyll (an include), MkDocs (an HTML block) and Docusaurus (a React
component); each file says where it goes and what it takes.

`LICENSE` is gpuplan's (MIT); `font-ja-LICENSE.txt` is the Japanese font's (IPA Font License).
The page also contains Dear ImGui (MIT, Omar Cornut) and SDL2 (zlib, Sam Lantinga).
"""

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sha(data):
    return hashlib.sha256(data).hexdigest()[:10]


def hashed_name(name, digest):
    # index.deferred.wasm -> index.<h>.deferred.wasm (index.js derives it from index.<h>.wasm).
    if name == "index.deferred.wasm":
        return "index.%s.deferred.wasm" % digest
    stem, ext = os.path.splitext(name)
    return "%s.%s%s" % (stem, digest, ext)


def rewrite(text, old, new, where):
    count = 0
    for q in ('"', "'"):
        count += text.count(q + old + q)
        text = text.replace(q + old + q, q + new + q)
    if count == 0:
        sys.exit("site_bundle: %s does not name '%s' as a quoted literal: the build's output changed; "
                 "update scripts/site_bundle.py" % (where, old))
    return text


def bundle(site, out, version):
    if not os.path.isfile(os.path.join(site, "index.html")):
        sys.exit("site_bundle: %s has no index.html (build the wasm preset first)" % site)
    name = "gpuplan-site-" + version
    dest = os.path.join(out, name)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    files = {}
    for entry in sorted(os.listdir(site)):
        path = os.path.join(site, entry)
        if os.path.isfile(path) and not entry.endswith((".map", ".symbols", ".orig")):
            with open(path, "rb") as f:
                files[entry] = f.read()
    renamed = {}
    wasm_pair = files.get("index.wasm", b"") + files.get("index.deferred.wasm", b"")  # nothing rewrites them
    for old, refs in RENAMES:
        if old not in files:
            if old in OPTIONAL:
                continue
            sys.exit("site_bundle: %s has no %s" % (site, old))
        digest = sha(wasm_pair) if old in ("index.wasm", "index.deferred.wasm") else sha(files[old])
        new = hashed_name(old, digest)
        for referrer, literal in refs:
            ref = renamed.get(referrer, referrer)
            text = files[ref].decode("utf-8")
            files[ref] = rewrite(text, literal, new, referrer).encode("utf-8")
        files[new] = files.pop(old)
        renamed[old] = new
    everything = hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()[:10]
    if "sw.js" in files:
        files["sw.js"] = rewrite(files["sw.js"].decode("utf-8"), SW_CACHE, "gpuplan-site-" + everything,
                                 "sw.js").encode("utf-8")
    hashed = sorted(renamed.values())
    immutable = "\n".join("/%s\n  Cache-Control: public, max-age=31536000, immutable" % h for h in hashed)
    files["_headers"] = HEADERS.format(immutable=immutable).encode()
    files[".htaccess"] = HTACCESS.format().encode()
    files["nginx.conf"] = NGINX.format(version=version).encode()
    files["README-HOSTS.md"] = README.format(
        version=version, hashed=", ".join("`%s`" % h for h in hashed if not h.startswith("probe"))).encode()
    # The generators' snippets (web/embed/) and the licence, as they are in the source tree.
    extras = [("LICENSE", os.path.join(ROOT, "LICENSE"))]
    embed = os.path.join(ROOT, "web", "embed")
    for top, _, names in sorted(os.walk(embed)):
        for n in sorted(names):
            path = os.path.join(top, n)
            extras.append(("embed/" + os.path.relpath(path, embed).replace(os.sep, "/"), path))
    for entry, path in extras:
        with open(path, "rb") as f:
            files[entry] = f.read()
    for entry, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(dest, entry)), exist_ok=True)
        with open(os.path.join(dest, entry), "wb") as f:
            f.write(data)
    # Archives with fixed times and owners, so the same build gives the same bytes.
    tar_path = os.path.join(out, name + ".tar.gz")
    with open(tar_path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for entry in sorted(files):
            info = tarfile.TarInfo(name + "/" + entry)
            info.size, info.mtime, info.mode = len(files[entry]), 0, 0o644
            tar.addfile(info, io.BytesIO(files[entry]))
    zip_path = os.path.join(out, name + ".zip")
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
        for entry in sorted(files):
            info = zipfile.ZipInfo(name + "/" + entry, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[entry])
    total = sum(len(d) for d in files.values())
    print("site_bundle: %s/ (%d files, %.1f MB), %s (%.1f MB), %s (%.1f MB); hashed: %s" % (
        dest, len(files), total / 1e6, tar_path, os.path.getsize(tar_path) / 1e6, zip_path,
        os.path.getsize(zip_path) / 1e6, ", ".join(hashed)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site")
    ap.add_argument("out")
    ap.add_argument("--version", default="dev")
    a = ap.parse_args()
    bundle(a.site, a.out, a.version)


if __name__ == "__main__":
    main()
