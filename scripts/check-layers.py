#!/usr/bin/env python3
"""Prints the layer graph of the source folders; fails on an include cycle between folders or a broken tier.

Every .c, .h, .inc and .def file of the tree belongs to a folder: its top-level folder, or tools/<name> for a
command's folder under tools/, or experiments/<name> for an experiment's under experiments/. An #include "x.h"
that names a file of the repository makes the includer's folder depend on the included file's folder. The
folders must form layers: no folder may depend, however indirectly, on one that depends on it. A cycle inside
one folder is that folder's business.

Above that, the folders keep tiers (TIERS below): the commands (tools/) above the experiments (experiments/) above
the run library (runner/) above the machine and its libraries. A folder may include folders of its own tier and
of those below, never of one above, even where no cycle would follow (an experiment including a command's header
makes no cycle while the command includes nothing of the experiment's).

Edges that close a cycle today and cannot be cut yet are listed, each with its reason, in
scripts/layer-exceptions.txt ("from to reason"): they are printed but left out of the cycle test, so a new
cycle fails while the known ones are fixed one by one. An exception that no longer exists fails too, so the
list only shrinks. Usage: scripts/check-layers.py [--graph-only]. docs/architecture.md shows the output.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCEPTIONS = os.path.join(ROOT, "scripts", "layer-exceptions.txt")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SPLIT = ("tools", "experiments")  # top-level folders whose subfolders are folders of their own
# Lowest first: (name, the folders of the tier; a name ending in / stands for the folders under it). Folders of no
# tier (programs, runtime, scripts, tests, fuzz, web) keep only the cycle test.
TIERS = [
    ("the machine", ("isa", "comm_agent", "emu", "common", "conset", "trace")),
    ("runner", ("runner",)),
    ("experiments", ("experiments/",)),
    ("commands", ("tools", "tools/")),
]


def folder_of(path):
    parts = path.split("/")
    if parts[0] in SPLIT and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0] if len(parts) > 1 else "."


def tier_of(folder):
    for rank, (_, names) in enumerate(TIERS):
        if any(folder == n or (n.endswith("/") and folder.startswith(n)) for n in names):
            return rank
    return None


def source_files():
    """Every source file of the tree; build folders (build*/ at the top, as .gitignore has them, or any meson set
    up) and hidden ones left out."""
    out = []
    for d, subdirs, names in os.walk(ROOT):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith(".")
                            and not (d == ROOT and s.startswith("build"))  # .gitignore's /build*/
                            and not os.path.exists(os.path.join(d, s, "meson-info")))
        rel = os.path.relpath(d, ROOT)
        out += [os.path.normpath(os.path.join(rel, n)) for n in sorted(names)
                if n.endswith((".c", ".h", ".inc", ".def"))]
    return out


def resolve(includer, name, by_base, files):
    """The repository file an include names: next to the includer, by its path, or by its base name (the
    build's include folders are flat). None for a generated or a system header."""
    here = os.path.normpath(os.path.join(os.path.dirname(includer), name))
    if here in files:
        return here
    if name in files:
        return name
    cands = by_base.get(os.path.basename(name), [])
    if not cands:
        return None
    same = [c for c in cands if folder_of(c) == folder_of(includer)]
    return sorted(same or cands)[0]


def edges_of(files):
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), []).append(f)
    fileset = set(files)
    edges = {}  # (from folder, to folder) -> [(includer, included)]
    for f in files:
        with open(os.path.join(ROOT, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            target = resolve(f, name, by_base, fileset)
            if target is None:
                continue
            a, b = folder_of(f), folder_of(target)
            if a != b:
                edges.setdefault((a, b), []).append((f, target))
    return edges


def read_exceptions():
    exc = {}
    if not os.path.exists(EXCEPTIONS):
        return exc
    with open(EXCEPTIONS, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                sys.exit(f"{EXCEPTIONS}:{n}: want 'from to reason'")
            exc[(parts[0], parts[1])] = parts[2]
    return exc


def cycles(nodes, edges):
    """The strongly connected components of more than one folder (Tarjan's algorithm)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def layers(nodes, edges):
    """Each folder's layer: 0 for a folder that includes no other, else one above the highest it includes
    (edges that close a cycle are left out by the caller)."""
    level = {}

    def lv(n, seen=()):
        if n in level:
            return level[n]
        deps = [b for (a, b) in edges if a == n and b not in seen]
        level[n] = 1 + max((lv(d, seen + (n,)) for d in deps), default=-1)
        return level[n]

    for n in nodes:
        lv(n)
    return level


def main(argv):
    if any(a != "--graph-only" for a in argv):
        print(f"usage: {sys.argv[0]} [--graph-only]", file=sys.stderr)
        return 2
    graph_only = "--graph-only" in argv
    files = source_files()
    edges = edges_of(files)
    exc = read_exceptions()
    nodes = {folder_of(f) for f in files}
    kept = {e: v for e, v in edges.items() if e not in exc}
    level = layers(nodes, kept)
    print("layer graph (folder: the folders it includes; * an exception in scripts/layer-exceptions.txt)")
    for n in sorted(nodes, key=lambda n: (level[n], n)):
        deps = sorted(b for (a, b) in edges if a == n)
        marked = [d + ("*" if (n, d) in exc else "") for d in deps]
        print(f"  {level[n]:2d} {n}: {' '.join(marked) if marked else '-'}")
    print("tiers, each above the next: " + " > ".join(
        f"{name} ({' '.join(n + '*' if n.endswith('/') else n for n in names)})" for name, names in reversed(TIERS)))
    if graph_only:
        return 0
    bad = 0
    for (a, b), pairs in sorted(edges.items()):
        ta, tb = tier_of(a), tier_of(b)
        if ta is not None and tb is not None and ta < tb:
            bad += 1
            print(f"tier broken: {a} ({TIERS[ta][0]}) includes {b} ({TIERS[tb][0]})")
            for f, t in pairs:
                print(f"    {f} includes {t}")
    for (a, b), why in sorted(exc.items()):
        if (a, b) not in edges:
            print(f"stale exception: {a} no longer includes {b}; remove it from {EXCEPTIONS}")
            bad += 1
        else:
            print(f"known exception {a} -> {b}: {why}")
            for f, t in edges[(a, b)]:
                print(f"    {f} includes {t}")
    for comp in cycles(nodes, kept):
        bad += 1
        print("include cycle between folders: " + " ".join(comp))
        for (a, b), pairs in sorted(kept.items()):
            if a in comp and b in comp:
                for f, t in pairs:
                    print(f"    {a} -> {b}: {f} includes {t}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
