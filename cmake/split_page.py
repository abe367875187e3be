#!/usr/bin/env python3
"""Splits the linked page (emcc -sSPLIT_MODULE) into the start-up module and a deferred one.

    split_page.py ORIG.wasm SYMBOLS RULES WASM_SPLIT PRIMARY.wasm DEFERRED.wasm

ORIG.wasm is what emcc linked (it leaves it as index.wasm.orig beside an instrumented
index.wasm, which the page does not use); SYMBOLS is its --emit-symbol-map (index:name, names
escaped as \\xx); RULES is web/deferred_code.txt, one regular expression per line searched in
each function's demangled name. Every defined function a rule names goes to DEFERRED.wasm
(wasm-split --split-funcs); the rest, and the table slots that call into the deferred code
through emcc's placeholders, stay in PRIMARY.wasm. Prints what moved. Beside SYMBOLS it leaves
SYMBOLS.deferred (the indices split) and SYMBOLS.placeholders (each placeholder's function, by
name: what the numbers in the page's Module.gpuplanDeferred.calls mean).

The module has no name section (the release link strips it), so binaryen calls each defined
function by its index among the defined functions; the symbol map counts imports first.
"""
import os
import re
import subprocess
import sys


def leb(b, i):
    value, shift = 0, 0
    while True:
        x = b[i]
        i += 1
        value |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return value, i


def sections(b):
    if b[:4] != b"\0asm":
        raise SystemExit(f"split_page: not a wasm module")
    i = 8
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        yield sid, i, size
        i += size


def function_layout(b):
    """(number of imported functions, body sizes of the defined ones); fails on a name section."""
    imported, bodies = 0, []
    for sid, off, size in sections(b):
        if sid == 0:
            n, j = leb(b, off)
            if b[j:j + n] == b"name":
                raise SystemExit("split_page: the module has a name section; binaryen would name "
                                 "functions by it, not by index (link without -g/--profiling-funcs)")
        elif sid == 2:  # imports: module, field, kind, description
            n, j = leb(b, off)
            for _ in range(n):
                for _ in range(2):
                    length, j = leb(b, j)
                    j += length
                kind = b[j]
                j += 1
                if kind == 0:  # function: type index
                    _, j = leb(b, j)
                    imported += 1
                elif kind == 1:  # table: element type, limits
                    j += 1
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 2:  # memory: limits
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                elif kind == 3:  # global: value type, mutability
                    j += 2
                else:
                    raise SystemExit(f"split_page: unknown import kind {kind}")
        elif sid == 10:
            n, j = leb(b, off)
            for _ in range(n):
                size_k, k = leb(b, j)
                bodies.append(k - j + size_k)
                j = k + size_k
    return imported, bodies


def main(argv):
    if len(argv) != 7:
        raise SystemExit(__doc__)
    orig, symbols, rules_path, wasm_split, primary, deferred = argv[1:]
    data = open(orig, "rb").read()
    imported, bodies = function_layout(data)

    names = {}
    for line in open(symbols, encoding="utf-8"):
        index, _, name = line.rstrip("\n").partition(":")
        names[int(index)] = re.sub(r"\\([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), name)

    rules = []
    for number, line in enumerate(open(rules_path, encoding="utf-8"), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            try:
                rules.append((line, re.compile(line)))
            except re.error as e:
                raise SystemExit(f"{rules_path}:{number}: {e}")

    chosen, moved, used = [], 0, set()
    for k, size in enumerate(bodies):
        name = names.get(imported + k, "")
        for text, rule in rules:
            if rule.search(name):
                chosen.append(str(k))
                moved += size
                used.add(text)
                break
    unused = [text for text, _ in rules if text not in used]
    if unused:
        # A rule that names nothing is a rule for code that was renamed or removed.
        raise SystemExit(f"split_page: {rules_path}: no function matches: " + "; ".join(unused))

    listing = symbols + ".deferred"
    with open(listing, "w") as f:
        f.write("\n".join(chosen) + "\n")
    features = ["--enable-simd", "--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals"]
    subprocess.run([wasm_split, orig, *features, f"--split-funcs=@{listing}", "--placeholdermap",
                    "-o1", primary, "-o2", deferred], check=True)
    # The placeholders by name, for whoever reads Module.gpuplanDeferred.calls in the page or
    # the browser test that guards the first frame: SYMBOLS.placeholders, "N: name" per line.
    placeholders = primary + ".placeholders"
    with open(placeholders) as f, open(symbols + ".placeholders", "w") as out:
        for line in f:
            index, _, func = line.strip().partition(":")
            if func.isdigit():
                out.write(f"{index}: {names.get(imported + int(func), func)}\n")
    os.remove(placeholders)
    total = sum(bodies)
    print(f"split_page: {len(chosen)} of {len(bodies)} functions, {moved} of {total} code bytes "
          f"({100.0 * moved / total:.0f} %), moved to {deferred}")


if __name__ == "__main__":
    main(sys.argv)
