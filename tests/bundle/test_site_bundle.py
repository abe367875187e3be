#!/usr/bin/env python3
"""scripts/site_bundle.py on a small site shaped like the wasm build's: the large files get
content-hashed names and every reference follows them, the entry points and the files named
at run time from parts keep theirs, the host snippets and the archives are there, and a
reference the bundler cannot find stops it."""
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "site_bundle.py")

SITE = {
    "index.html": "<script>fetch('index.deferred.wasm');s.src='index.js';p=x?'probe.js':'probe-st.js';"
                  "img.src='preview-'+panel+'.svg'</script>",
    "index.js": 'J="index.wasm";fetch("catalog-sources.json");t=J.slice(0,-5)+".deferred.wasm";f("i18n-"+n+".json")',
    "index.wasm": "\0asm-start",
    "index.deferred.wasm": "\0asm-deferred",
    "catalog-sources.json": '{"schema":"gpuplan.catalog-files/1"}',
    "probe.js": 'wasmBinaryFile="probe.wasm";locateFile("probe.worker.js")',
    "probe.wasm": "\0asm-probe",
    "probe.worker.js": "importScripts(e.data.urlOrBlob)",
    "probe-st.js": 'wasmBinaryFile="probe-st.wasm"',
    "probe-st.wasm": "\0asm-probe-st",
    "sw.js": "var CACHE = 'gpuplan-site-1';var START = ['./', 'index.html', 'index.js', 'index.wasm', 'index.deferred.wasm'];",
    "i18n-ja.json": "{}",
    "font-ja.ttf": "font",
    "preview-fit-dark.svg": "<svg/>",
}


def run(site, out):
    return subprocess.run([sys.executable, SCRIPT, site, out, "--version", "9.8.7"], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        site, out = os.path.join(tmp, "site"), os.path.join(tmp, "out")
        os.makedirs(site)
        for name, text in SITE.items():
            with open(os.path.join(site, name), "w") as f:
                f.write(text)
        r = run(site, out)
        assert r.returncode == 0, r.stderr
        dest = os.path.join(out, "gpuplan-site-9.8.7")
        names = sorted(os.listdir(dest))
        read = lambda n: open(os.path.join(dest, n)).read()
        by_stem = lambda stem, ext: [n for n in names if n.startswith(stem + ".") and n.endswith(ext) and len(n) == len(stem) + 11 + len(ext)]
        js, = by_stem("index", ".js")
        wasm, = by_stem("index", ".wasm")
        deferred = wasm[:-5] + ".deferred.wasm"  # as index.js derives it
        assert deferred in names, names
        sources, = by_stem("catalog-sources", ".json")
        probe, = by_stem("probe", ".js")
        probe_st, = by_stem("probe-st", ".js")
        probe_wasm, = by_stem("probe", ".wasm")
        worker, = by_stem("probe.worker", ".js")
        for kept in ["index.html", "sw.js", "i18n-ja.json", "font-ja.ttf", "preview-fit-dark.svg"]:
            assert kept in names, (kept, names)
        for gone in ["index.js", "index.wasm", "index.deferred.wasm", "catalog-sources.json", "probe.js", "probe.wasm"]:
            assert gone not in names, (gone, names)
        html = read("index.html")
        for ref in [js, deferred, probe, probe_st]:
            assert "'%s'" % ref in html, (ref, html)
        assert "'preview-'+panel" in html
        assert '"%s"' % wasm in read(js) and '"%s"' % sources in read(js) and '"i18n-"' in read(js)
        assert '"%s"' % probe_wasm in read(probe) and '"%s"' % worker in read(probe)
        sw = read("sw.js")
        assert "'%s'" % js in sw and "'%s'" % wasm in sw and "'%s'" % deferred in sw, sw
        assert "gpuplan-site-1'" not in sw, sw
        for snippet in ["_headers", ".htaccess", "nginx.conf", "README-HOSTS.md", "LICENSE", "embed"]:
            assert snippet in names, names
        for generator in ["hugo/layouts/shortcodes/gpuplan.html", "jekyll/_includes/gpuplan.html", "mkdocs/gpuplan.md",
                          "docusaurus/src/components/Gpuplan.js"]:
            assert "gpuplan:height" in read("embed/" + generator), generator
        assert "application/wasm" in read(".htaccess") and "application/wasm" in read("nginx.conf")
        assert "/%s\n  Cache-Control: public, max-age=31536000, immutable" % js in read("_headers")
        with tarfile.open(os.path.join(out, "gpuplan-site-9.8.7.tar.gz")) as t:
            assert "gpuplan-site-9.8.7/" + js in t.getnames()
        with zipfile.ZipFile(os.path.join(out, "gpuplan-site-9.8.7.zip")) as z:
            assert "gpuplan-site-9.8.7/index.html" in z.namelist()
            assert "gpuplan-site-9.8.7/embed/hugo/layouts/shortcodes/gpuplan.html" in z.namelist()
        # The same site bundles to the same bytes (fixed archive times).
        first = open(os.path.join(out, "gpuplan-site-9.8.7.tar.gz"), "rb").read()
        assert run(site, out).returncode == 0
        assert open(os.path.join(out, "gpuplan-site-9.8.7.tar.gz"), "rb").read() == first
        # A build whose index.js no longer names index.wasm as a literal: stopped, with the reason.
        with open(os.path.join(site, "index.js"), "w") as f:
            f.write('J=name+".wasm";fetch("catalog-sources.json")')
        r = run(site, out)
        assert r.returncode != 0 and "does not name 'index.wasm'" in r.stderr, (r.returncode, r.stderr)
    print("site bundle: ok")


if __name__ == "__main__":
    main()
