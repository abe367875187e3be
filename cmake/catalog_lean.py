#!/usr/bin/env python3
"""The page's catalog in two parts (web/CMakeLists.txt): the built-in files as the page embeds
them, and every file whole in one JSON bundle, catalog-sources.json, which the page fetches only
when the Catalog panel or a tooltip shows what the embedded copy leaves out. Every number the
estimators and reports use stays in the embedded copy; what it leaves out:

  - the entries' "sources" lists, and the "source" of the memory readings and MIG profiles;
  - the "note" and "fields" of the sources it keeps (a price's and a format's source title
    stays: the cost report and the format pickers quote it);
  - an engine calibration's "basis" (how and when it was fitted: the Catalog panel's words), a
    format's "tensor_bits" "why", and each file's "about";
  - the words only the Catalog panel and tooltips show (DEFERRED: notes, derivations, engine
    workspace descriptions); the page asks for the bundle when a tooltip wants them;
  - fields the core never reads: an entry's or a model config's key that no string literal in
    the core's sources (--reads) names, e.g. a config's "transformers_version" or a format's
    "high_precision" note. The loader reads fields by name, so a key it does not name cannot
    change a number; one it starts to read is named in its source and is kept from then on.

Values are not rewritten: json round-trips every number exactly.

  catalog_lean.py LEAN_DIR BUNDLE_JSON file.json... --reads core/src/x.cpp core/include/...
"""
import argparse
import json
import os
import re
import sys


# Objects whose own "source" goes with the sources lists.
NESTED_SOURCES = {"memory_reported_mib", "memory_runtime_mib", "memory_derived", "unified_memory", "mig_profiles"}
# Words for people: shown by the Catalog panel and by tooltips that ask for the bundle.
DEFERRED = {"notes", "derivation", "activation_workspace"}
# The parts of a kept source that only the Catalog panel's source list shows.
SOURCE_DEFERRED = {"note", "fields"}


def strip(value, key=""):
    if isinstance(value, dict):
        return {k: strip(v, k) for k, v in value.items()
                if k != "sources" and k not in DEFERRED
                and not (k == "source" and key in NESTED_SOURCES)
                and not (key == "source" and k in SOURCE_DEFERRED)
                and not (key == "calibration" and k == "basis")
                and not (key in ("tensor_bits", "extra_kernels_per_gemm") and k == "why")
                and not (key == "" and k == "about")}
    if isinstance(value, list):
        return [strip(v, key) for v in value]
    return value


def read_keys(paths):
    """Every string literal in the core's sources: the names its loader can read."""
    names = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            names.update(re.findall(r'"((?:[^"\\\n]|\\.)*)"', f.read()))
    return names


def drop_unread(entry, read, dropped):
    """An entry's fields (and a Hugging Face config's keys, and those of its *_config parts)
    that the core never names. Only schema keys are looked at, never a map's keys (a GPU's
    dense_tflops precisions stay whatever they are)."""
    def config(c, where):
        out = {}
        for k, v in c.items():
            if k not in read:
                dropped.add(where + k)
            else:
                out[k] = config(v, where + k + ".") if isinstance(v, dict) and k.endswith("_config") else v
        return out

    out = {}
    for k, v in entry.items():
        if k not in read:
            dropped.add(k)
        elif k == "config" and isinstance(v, dict):
            out[k] = config(v, "config.")
        else:
            out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lean_dir")
    ap.add_argument("bundle")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--reads", nargs="+", required=True, help="the core's sources (their string literals)")
    args = ap.parse_args()
    read = read_keys(args.reads)
    os.makedirs(args.lean_dir, exist_ok=True)
    bundle, dropped = [], set()
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        lean = strip(doc)
        for key, entries in lean.items():  # {"gpus": [...]}, {"models": [...]}, ...
            if isinstance(entries, list):
                lean[key] = [drop_unread(e, read, dropped) if isinstance(e, dict) else e for e in entries]
        name = os.path.basename(path)
        with open(os.path.join(args.lean_dir, name), "w", encoding="utf-8") as f:
            json.dump(lean, f, ensure_ascii=False, separators=(",", ":"))
        bundle.append({"name": name, "doc": doc})
    with open(args.bundle, "w", encoding="utf-8") as f:
        json.dump({"schema": "gpuplan.catalog-files/1", "files": bundle}, f, ensure_ascii=False, separators=(",", ":"))
    config_keys = sorted(k for k in dropped if k.startswith("config."))
    fields = sorted(k for k in dropped if not k.startswith("config."))
    print(f"catalog_lean: left to catalog-sources.json: fields the core does not read ({', '.join(fields) or 'none'}) "
          f"and {len(config_keys)} Hugging Face config keys", file=sys.stderr)


if __name__ == "__main__":
    main()
