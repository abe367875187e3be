#!/usr/bin/env python3
"""The page's catalog in two parts (web/CMakeLists.txt): the built-in files without their
entries' "sources" lists, which the page embeds (the figures and everything the estimators and
reports use), and every file whole in one JSON bundle, catalog-sources.json, which the page
fetches only when the Catalog panel or a tooltip shows sources. The sources are about 53 KB of
the catalog's 82 KB gzip. Values are not rewritten: json round-trips every number exactly.

  catalog_lean.py LEAN_DIR BUNDLE_JSON file.json...
"""
import json
import os
import sys


# Objects whose own "source" goes with the sources lists (a price keeps its source: the cost
# report quotes it).
NESTED_SOURCES = {"memory_reported_mib", "memory_runtime_mib", "memory_derived", "unified_memory", "mig_profiles"}


def strip(value, key=""):
    if isinstance(value, dict):
        return {k: strip(v, k) for k, v in value.items()
                if k != "sources" and not (k == "source" and key in NESTED_SOURCES)}
    if isinstance(value, list):
        return [strip(v, key) for v in value]
    return value


def main():
    lean_dir, bundle_path, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(lean_dir, exist_ok=True)
    bundle = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        name = os.path.basename(path)
        with open(os.path.join(lean_dir, name), "w", encoding="utf-8") as f:
            json.dump(strip(doc), f, ensure_ascii=False, separators=(",", ":"))
        bundle.append({"name": name, "doc": doc})
    with open(bundle_path, "w", encoding="utf-8") as f:
        json.dump({"schema": "gpuplan.catalog-files/1", "files": bundle}, f, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main()
