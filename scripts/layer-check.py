#!/usr/bin/env python3
"""The server's one-way layers (issue 54; docs/architecture.md).

Every top-level folder of Sources/Atelier sits on a layer. A folder may name the types (and top-level
functions) that folders on its own layer's *lower* layers declare, never those of a folder above it, and two
domains on one layer never name each other's. The check reads the Swift sources with a small lexer
(comments and string literals dropped, string interpolations kept), collects what each folder declares at
file scope, and reports every use that runs the wrong way.

    scripts/layer-check.py                  check; exit 1 on a crossing not in EXCEPTIONS
    scripts/layer-check.py --report         every crossing, grouped by folder pair, with the files
    scripts/layer-check.py --dot FILE       the real dependency graph (Graphviz), layers as ranks
    scripts/layer-check.py --svg FILE       the same graph drawn by Graphviz's `dot` (Debian: graphviz), for
                                            docs/architecture.md: scripts/layer-check.py --svg docs/layers.svg
    scripts/layer-check.py --root DIR       check another tree (the check's own test uses a scratch copy)

A use is a whole identifier token equal to a declared name, so `Product` in `ProductCard` does not count,
and `Foo.Bar` counts as a use of `Foo`. Nested types are not collected: only file-scope declarations name
a folder's vocabulary.
"""
from __future__ import annotations

import argparse
import collections
import pathlib
import re
import subprocess
import sys

# Lowest first. A folder may use what the layers before it declare.
LAYERS: list[tuple[str, list[str]]] = [
    ("floor", ["Core"]),
    ("jobs", ["Jobs"]),
    ("mail", ["Mail"]),
    ("accounts", ["Accounts"]),
    ("media", ["Media"]),
    ("notifications", ["Notifications"]),
    ("catalog", ["Catalog"]),
    ("social", ["Social"]),
    ("discovery", ["Discovery"]),
    ("commerce", ["Commerce"]),
    ("wardrobe", ["Wardrobe"]),
    ("moments", ["Moments"]),
    ("magazine", ["Magazine"]),
    ("web", ["Site", "Operations"]),
    ("root", ["App"]),
]

# Crossings still to cut, "User -> Declarer": reason. Each entry must still be needed (a stale one fails
# the check too), and the list shrinks to nothing.
EXCEPTIONS: dict[str, str] = {}

SOURCE_ROOT = pathlib.Path("Sources/Atelier")
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|internal|fileprivate|private|package|final|open|indirect|nonisolated|static|"
    r"override|convenience|mutating|nonmutating|dynamic|required|lazy|weak|unowned)\s+)*"
    r"(struct|class|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def code_of(text: str) -> str:
    """The file with comments and string literal text blanked (newlines kept); interpolations stay code."""
    out: list[str] = []
    i, n = 0, len(text)
    # Stack of open string literals: (closing delimiter, paren depth inside the current interpolation).
    strings: list[list] = []

    def in_code() -> bool:
        return not strings or strings[-1][1] > 0

    while i < n:
        c = text[i]
        if in_code():
            if text.startswith("//", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append("\n" * text.count("\n", i, j))
                i = j
                continue
            m = re.match(r'(#*)("""|")', text[i:i + 8])
            if m:
                hashes, quote = m.group(1), m.group(2)
                strings.append([quote + hashes, 0, "\\" + hashes])
                out.append(" ")
                i += len(m.group(0))
                continue
            if strings and c == "(":
                strings[-1][1] += 1
            elif strings and c == ")":
                strings[-1][1] -= 1
                if strings[-1][1] == 0:
                    out.append(" ")
                    i += 1
                    continue
            out.append(c)
            i += 1
            continue
        closing, _, escape = strings[-1]
        if text.startswith(escape + "(", i):
            strings[-1][1] = 1
            out.append(" ")
            i += len(escape) + 1
            continue
        if text.startswith(escape, i) and escape == "\\":
            out.append("  ")
            i += 2
            continue
        if text.startswith(closing, i):
            strings.pop()
            out.append(" ")
            i += len(closing)
            continue
        out.append("\n" if c == "\n" else " ")
        i += 1
    return "".join(out)


def declared_names(code: str) -> tuple[list[str], list[str], list[str]]:
    """(file-scope types, nested types, file-scope functions and constants): a folder's vocabulary, and
    the type names it declares for itself."""
    top, nested, free, depth = [], [], [], 0
    for line in code.split("\n"):
        m = DECLARATION.match(line)
        if m:
            if depth == 0:
                (free if m.group(1) in ("func", "let", "var") else top).append(m.group(2))
            elif m.group(1) in ("struct", "class", "enum", "protocol", "actor", "typealias"):
                nested.append(m.group(2))
        depth += line.count("{") - line.count("}")
    return top, nested, free


def analyse(root: pathlib.Path):
    sources = root / SOURCE_ROOT
    layer_of: dict[str, int] = {}
    for index, (_, folders) in enumerate(LAYERS):
        for folder in folders:
            layer_of[folder] = index
    folders = sorted(p.name for p in sources.iterdir() if p.is_dir())
    unknown = [f for f in folders if f not in layer_of]
    codes: dict[pathlib.Path, str] = {}
    declared_by: dict[str, str] = {}
    # Top-level functions and constants, which count only where not written as a member (`x.configure`).
    free_names: set[str] = set()
    # A folder's own nested `Report` shadows another folder's file-scope `Report`.
    own_types: dict[str, set[str]] = collections.defaultdict(set)
    for path in sorted(sources.rglob("*.swift")):
        folder = path.relative_to(sources).parts[0]
        code = code_of(path.read_text(encoding="utf-8"))
        codes[path] = code
        top, nested, free = declared_names(code)
        for name in top + free:
            declared_by.setdefault(name, folder)
        free_names.update(free)
        own_types[folder].update(nested)
    # (user, declarer) -> {file: sorted names}
    uses: dict[tuple[str, str], dict[str, set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))
    for path, code in codes.items():
        folder = path.relative_to(sources).parts[0]
        tokens = set()
        for m in IDENTIFIER.finditer(code):
            token = m.group(0)
            if token in free_names and (code[m.start() - 1:m.start()] == "." or code[:m.start()].endswith("func ")):
                continue
            tokens.add(token)
        for token in tokens:
            owner = declared_by.get(token)
            if owner and owner != folder and token not in own_types[folder]:
                uses[(folder, owner)][str(path.relative_to(root))].add(token)
    return folders, unknown, layer_of, uses


def is_upward(user: str, declarer: str, layer_of: dict[str, int]) -> bool:
    return layer_of[declarer] >= layer_of[user]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=".", help="the repository to check")
    parser.add_argument("--report", action="store_true", help="list every crossing with its files")
    parser.add_argument("--dot", metavar="FILE", help="write the dependency graph in Graphviz's language")
    parser.add_argument("--svg", metavar="FILE", help="draw the dependency graph with Graphviz's dot")
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    folders, unknown, layer_of, uses = analyse(root)
    if unknown:
        print(f"layer-check: folders on no layer: {', '.join(unknown)}; add them to LAYERS", file=sys.stderr)
        return 1
    crossings = {pair: files for pair, files in uses.items() if is_upward(*pair, layer_of)}

    if args.dot:
        write_dot(pathlib.Path(args.dot), folders, layer_of, uses, crossings)
    if args.svg:
        dot = pathlib.Path(args.svg).with_suffix(".dot.tmp")
        write_dot(dot, folders, layer_of, uses, crossings)
        try:
            subprocess.run(["dot", "-Tsvg", str(dot), "-o", args.svg], check=True)
        finally:
            dot.unlink()
    if args.report:
        for (user, declarer), files in sorted(crossings.items()):
            names = sorted(set().union(*files.values()))
            print(f"{user} -> {declarer}: {len(names)} names in {len(files)} files")
            for file, found in sorted(files.items()):
                print(f"    {file}: {', '.join(sorted(found))}")

    failures = []
    for user, declarer in sorted(crossings):
        if f"{user} -> {declarer}" not in EXCEPTIONS:
            files = crossings[(user, declarer)]
            sample = ", ".join(f"{f} ({', '.join(sorted(n))})" for f, n in sorted(files.items())[:3])
            failures.append(f"{user} names {declarer}'s types, but {declarer} is not below it: {sample}")
    for key in sorted(EXCEPTIONS):
        user, declarer = key.split(" -> ")
        if (user, declarer) not in crossings:
            failures.append(f"exception '{key}' is no longer needed: remove it from EXCEPTIONS")
    summary = (f"layer-check: {len(folders)} folders, {len(uses)} folder pairs in use, "
               f"{len(crossings)} running upward or sideways, {len(EXCEPTIONS)} exceptions")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        print(summary + " — FAILED", file=sys.stderr)
        return 1
    print(summary + " — ok")
    return 0


def write_dot(path, folders, layer_of, uses, crossings) -> None:
    """Layers top to bottom as the order says (the root on top, Core at the floor); an arrow from the
    folder that names to the folder that declares, labelled with how many names. Red: a crossing
    (drawn without pulling the layout)."""
    lines = ["digraph atelier {", '  rankdir=TB; nodesep=0.35; ranksep=0.55; node [shape=box, fontname="Helvetica"];',
             '  edge [color="#999999", fontname="Helvetica", fontsize=9, arrowsize=0.6];']
    ordered = []
    for name, members in reversed(LAYERS):
        present = [m for m in members if m in folders]
        if present:
            ordered.append(present)
            lines.append("  { rank=same; " + " ".join(f'"{m}";' for m in present) + " }")
    for upper, lower in zip(ordered, ordered[1:]):
        lines.append(f'  "{upper[0]}" -> "{lower[0]}" [style=invis, weight=10];')
    for (user, declarer), files in sorted(uses.items()):
        count = len(set().union(*files.values()))
        attrs = f'label="{count}"'
        if (user, declarer) in crossings:
            attrs += ', color="#c0392b", fontcolor="#c0392b", constraint=false'
        lines.append(f'  "{user}" -> "{declarer}" [{attrs}];')
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
