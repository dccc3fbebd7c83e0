#!/usr/bin/env python3
"""Prints the include and link graph between xtile's libraries and fails on
any edge that points upward.

Every C++, C and TableGen file under include/xtile, include/xtile-c, lib,
runtime and tools belongs to one component (COMPONENTS below). An edge is an
`#include "xtile/..."` (or `runtime/...`, `xtile-c/...`; TableGen's
`include "xtile/..."`) from a file of one component to a file of another, or
a CMake link (LINK_LIBS, DEPENDS, target_link_libraries, add_dependencies)
from a target of one component to a target of another. ALLOWED says which
edges each component may have; any other edge is reported as upward.

Usage: layering.py [--root DIR]
Exit status: 0 when there is no upward edge, 1 otherwise (and when a file or
a component has no place in the tables: extend them rather than skip it).
"""

import argparse
import fnmatch
import os
import re
import sys

# The dialects in lowering order: Tensor IR lowers to Loop IR, Loop IR to
# Tile IR, Tile IR to Kernel IR. A dialect knows none of the others; a
# conversion <A>To<B> reads A and writes B.
LEVELS = ["Tensor", "Loop", "Tile", "Kernel"]

# Component of a path relative to the root: the first pattern that matches
# wins; {1} is the pattern's first group.
COMPONENTS = [
    (r"(include/xtile|lib)/Support/", "Support"),
    (r"(include/xtile|lib)/Dialect/([^/]+)/", "Dialect/{2}"),
    # The conversion passes' table and what it generates (Passes.h.inc):
    # each conversion takes its own pass's declarations from it.
    (r"include/xtile/Conversion/(Passes\.td|Passes\.h\.inc|CMakeLists\.txt)$",
     "Conversion/Passes.td"),
    # Registers every conversion pass (GEN_PASS_REGISTRATION).
    (r"include/xtile/Conversion/Passes\.h$", "Conversion/Passes.h"),
    (r"(include/xtile|lib)/Conversion/([^/]+)/", "Conversion/{2}"),
    (r"(include/xtile|lib)/Target/([^/]+)/", "Target/{2}"),
    (r"(include/xtile|lib)/Pipelines/", "Pipelines"),
    # InitAll*.h and the XTileInitAll target that links what they name.
    (r"include/xtile/InitAll[^/]*$", "InitAll"),
    (r"lib/CMakeLists\.txt$", "InitAll"),
    (r"(include/xtile-c|lib/CAPI)/", "CAPI"),
    (r"runtime/", "runtime"),
    (r"tools/([^/]+)/", "tools/{1}"),
]

# What each component may depend on (fnmatch patterns over component names).
# Anything else is an upward edge.
ALLOWED = {
    "Support":                   [],
    # Dialects: Support only. A dialect's IR, Transforms and Utils folders
    # are one component, so they use each other freely.
    "Dialect/Tensor":            ["Support"],
    "Dialect/Loop":              ["Support"],
    "Dialect/Tile":              ["Support"],
    "Dialect/Kernel":            ["Support"],
    # Conversions: their source and target dialect (plus upstream MLIR).
    "Conversion/Passes.td":      [],
    "Conversion/LinalgToTensor": ["Support", "Conversion/Passes.td",
                                  "Dialect/Tensor"],
    "Conversion/TosaToTensor":   ["Support", "Conversion/Passes.td",
                                  "Dialect/Tensor"],
    "Conversion/TensorToLoop":   ["Support", "Conversion/Passes.td",
                                  "Dialect/Tensor", "Dialect/Loop"],
    "Conversion/LoopToTile":     ["Support", "Conversion/Passes.td",
                                  "Dialect/Loop", "Dialect/Tile"],
    "Conversion/TileToKernel":   ["Support", "Conversion/Passes.td",
                                  "Dialect/Tile", "Dialect/Kernel"],
    "Conversion/KernelToGPU":    ["Support", "Conversion/Passes.td",
                                  "Dialect/Kernel"],
    "Conversion/Passes.h":       ["Conversion/*"],
    # Emitters: Kernel IR (PTX through upstream's GPU/NVVM lowering).
    "Target/CUDA":               ["Support", "Dialect/Kernel"],
    "Target/LaunchPlan":         ["Support", "Dialect/Kernel"],
    "Target/PTX":                ["Support", "Dialect/Kernel",
                                  "Conversion/KernelToGPU"],
    # Assemblers of everything above.
    "Pipelines":                 ["Support", "Dialect/*", "Conversion/*",
                                  "Target/*"],
    "InitAll":                   ["Support", "Dialect/*", "Conversion/*",
                                  "Target/*", "Pipelines"],
    "CAPI":                      ["Support", "Dialect/*", "Conversion/*",
                                  "Target/*", "Pipelines", "InitAll"],
    # The runtime executes emitted code and launch plans: no IR of ours.
    "runtime":                   ["Support"],
    # Tools may use anything; their edges are printed, never reported.
    "tools/*":                   ["*"],
}

SOURCE_DIRS = ["include/xtile", "include/xtile-c", "lib", "runtime", "tools"]
SOURCE_EXTENSIONS = (".h", ".hpp", ".inc", ".def", ".c", ".cc", ".cpp", ".td")
# Include prefixes that name our files, and where those files live.
INCLUDE_ROOTS = {"xtile/": "include/", "xtile-c/": "include/",
                 "runtime/": ""}

CPP_INCLUDE = re.compile(r'^\s*#\s*include\s*(<[^>]+>|"[^"]+")')
TD_INCLUDE = re.compile(r'^\s*include\s+("[^"]+")')


def component_of(path):
    for pattern, name in COMPONENTS:
        match = re.match(pattern, path)
        if match:
            return name.format(None, *match.groups())
    return None


def rule_for(component):
    for pattern, allowed in ALLOWED.items():
        if fnmatch.fnmatchcase(component, pattern):
            return allowed
    return None


def allowed(source, target):
    return any(fnmatch.fnmatchcase(target, p) for p in rule_for(source))


def walk(root):
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for filename in sorted(filenames):
                path = os.path.relpath(os.path.join(dirpath, filename), root)
                yield path.replace(os.sep, "/")


def read_lines(root, path):
    with open(os.path.join(root, path), encoding="utf-8",
              errors="replace") as f:
        return f.read().splitlines()


def include_target(path, spelled):
    """The root-relative path an include names, or None if not ours."""
    quoted, spelled = spelled.startswith('"'), spelled[1:-1]
    for prefix, where in INCLUDE_ROOTS.items():
        if spelled.startswith(prefix):
            return where + spelled
    if quoted and ("/" not in spelled or spelled.startswith(".")):
        # Next to the including file: the same component.
        return os.path.normpath(
            os.path.join(os.path.dirname(path), spelled)).replace(os.sep, "/")
    return None


def include_edges(root, path):
    pattern = TD_INCLUDE if path.endswith(".td") else CPP_INCLUDE
    for number, line in enumerate(read_lines(root, path), 1):
        match = pattern.match(line)
        if not match:
            continue
        target = include_target(path, match.group(1))
        if target is not None:
            yield number, target, line.strip()


# CMake: commands as (name, [(token, line)]), enough for our own files.
CMAKE_COMMAND = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def cmake_commands(root, path):
    text = "\n".join(re.sub(r"#.*$", "", line)
                     for line in read_lines(root, path))
    position = 0
    while True:
        match = CMAKE_COMMAND.search(text, position)
        if not match:
            return
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        body_start = match.end()
        tokens = []
        for token in re.finditer(r'"[^"]*"|[^\s()]+', text[body_start:end - 1]):
            line = text.count("\n", 0, body_start + token.start()) + 1
            tokens.append((token.group(0).strip('"'), line))
        yield match.group(1).lower(), tokens
        position = end


LIBRARY_KEYWORDS = {"DEPENDS", "LINK_LIBS", "MLIR_LIBS", "LINK_COMPONENTS",
                    "ADDITIONAL_HEADER_DIRS", "PARTIAL_SOURCES_INTENDED"}
VISIBILITY = {"PUBLIC", "PRIVATE", "INTERFACE"}


def cmake_definitions(command, tokens):
    """Names of the targets a command defines."""
    if not tokens:
        return []
    if command in ("xtile_add_library", "add_library", "add_executable",
                   "add_llvm_executable", "add_public_tablegen_target",
                   "add_custom_target"):
        return [tokens[0][0]]
    if command == "xtile_add_dialect_tablegen":
        return ["XTile%sOpsIncGen" % tokens[0][0]]
    return []


def cmake_links(command, tokens):
    """(from target, [(token, line, keyword)]) of a command that links."""
    if not tokens:
        return None, []
    if command in ("target_link_libraries", "mlir_target_link_libraries",
                   "add_dependencies"):
        keyword = "depends" if command == "add_dependencies" else "links"
        return tokens[0][0], [(t, l, keyword) for t, l in tokens[1:]
                              if t not in VISIBILITY]
    if command == "xtile_add_library":
        section, items = None, []
        for token, line in tokens[1:]:
            if token in LIBRARY_KEYWORDS:
                section = token
            elif section == "LINK_LIBS":
                items.append((token, line, "links"))
            elif section == "DEPENDS":
                items.append((token, line, "depends on"))
        return tokens[0][0], items
    return None, []


class Graph:
    def __init__(self):
        # (from, to) -> {"include": [(file, line, text)], "link": [...]}
        self.edges = {}
        self.components = set()
        self.errors = []

    def add(self, source, target, kind, evidence):
        self.components.update((source, target))
        if source != target:
            entry = self.edges.setdefault((source, target),
                                          {"include": [], "link": []})
            entry[kind].append(evidence)


def build(root):
    graph = Graph()
    cmake_files = []
    for path in walk(root):
        if os.path.basename(path) == "CMakeLists.txt":
            cmake_files.append(path)
            continue
        if not path.endswith(SOURCE_EXTENSIONS):
            continue
        source = component_of(path)
        if source is None:
            graph.errors.append("unclassified file: %s (add its folder to "
                                "COMPONENTS in scripts/layering.py)" % path)
            continue
        graph.components.add(source)
        for number, target_path, text in include_edges(root, path):
            target = component_of(target_path)
            if target is None:
                graph.errors.append(
                    "unclassified include: %s:%d: %s" % (path, number, text))
                continue
            graph.add(source, target, "include", (path, number, text))

    targets = {}
    parsed = []
    for path in cmake_files:
        commands = list(cmake_commands(root, path))
        parsed.append((path, commands))
        for command, tokens in commands:
            for name in cmake_definitions(command, tokens):
                component = component_of(path)
                if component is None:
                    graph.errors.append(
                        "unclassified target: %s defined in %s" % (name, path))
                else:
                    targets[name] = component
    for path, commands in parsed:
        for command, tokens in commands:
            owner, items = cmake_links(command, tokens)
            source = targets.get(owner) or component_of(path)
            for name, line, keyword in items:
                if name not in targets:
                    continue  # upstream MLIR, LLVM, system libraries
                if source is None:
                    graph.errors.append("unclassified CMake file: %s:%d: %s"
                                        % (path, line, name))
                    continue
                graph.add(source, targets[name], "link",
                          (path, line, "%s %s" % (keyword, name)))

    for component in sorted(graph.components):
        if rule_for(component) is None:
            graph.errors.append("no rule for component %s (add it to ALLOWED "
                                "in scripts/layering.py)" % component)
    return graph


def order(component):
    """Sort key: the tables' order, then the name."""
    names = list(ALLOWED)
    for index, pattern in enumerate(names):
        if fnmatch.fnmatchcase(component, pattern):
            return (index, component)
    return (len(names), component)


def main():
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=default_root,
                        help="the source tree (default: this script's)")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    graph = build(root)

    print("layering: what each component depends on (by #include, by CMake "
          "link; UPWARD: not allowed)")
    for source in sorted(graph.components, key=order):
        deps = []
        for target in sorted({t for s, t in graph.edges if s == source},
                             key=order):
            entry = graph.edges[(source, target)]
            kinds = "+".join(k for k in ("include", "link") if entry[k])
            if rule_for(source) is not None and not allowed(source, target):
                kinds += ", UPWARD"
            deps.append("%s (%s)" % (target, kinds))
        print("  %s: %s" % (source, "; ".join(deps) if deps else "-"))

    violations = []
    for (source, target), entry in sorted(
            graph.edges.items(), key=lambda e: (order(e[0][0]),
                                                order(e[0][1]))):
        if rule_for(source) is None or allowed(source, target):
            continue
        for path, line, text in entry["include"] + entry["link"]:
            violations.append("upward edge: %s -> %s (%s:%d: %s)"
                              % (source, target, path, line, text))
    for message in violations + graph.errors:
        print(message)
    if violations or graph.errors:
        print("%d upward edge(s), %d other error(s)"
              % (len(violations), len(graph.errors)))
        return 1
    print("no upward edges")
    return 0


if __name__ == "__main__":
    sys.exit(main())
