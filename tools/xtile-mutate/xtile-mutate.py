#!/usr/bin/env python3
"""Structure-aware mutation fuzzing of xtile's tools.

    python3 tools/xtile-mutate/xtile-mutate.py --inputs 10000 [--jobs 2]
        [--bin build/bin] [--seed 1] [--keep findings/] [SEED_FILES...]

Starts from valid IR (by default every module of examples/ and test/ that
`xtile-opt` accepts; split files are cut at `// -----`) and applies one to
three mutations that keep the text well-formed but change its meaning:

  size     a dimension of a tensor type (to 0, 1, a neighbour, a large size,
           a size past 2^31)
  dtype    the element type of a tensor type (f32, f16, bf16, f64, i1, i8,
           i32, i64, index, f8E4M3FN, f8E5M2)
  number   an integer in an attribute (dims, perm, ways, stages, tiles, ...)
  op       an op name, for another op name of the corpus
  operand  an SSA use, for another value of the module
  line     a line deleted, or duplicated

Each mutant goes through `xtile-opt`, `xtile-opt --lower-to-kernel` and
`xtile-translate --mlir-to-cuda` (of the lowered module, and of the mutant
itself when it holds Kernel IR); one in ten also through
`xtile-translate --mlir-to-ptx`. The rule: every run exits with 0, or with
1 and a located error (`file:line:col: error:`). Anything else (a signal, an
assertion, `LLVM ERROR`, an error without a location, a hang past 60 s) is a
finding: it is printed and, with --keep, saved. A crash whose stack has no
frame in xtile's code (a verifier or parser of an upstream dialect that
xtile registers, e.g. `tensor.concat`'s) is reported apart, as upstream's.
Exit status 1 when there was a finding of ours.
"""
import argparse
import concurrent.futures
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

TYPE = re.compile(r"(tensor|memref|vector)<((?:[0-9?]+x)*)([a-z][a-z0-9]*)>")
NUMBER_IN_ATTR = re.compile(
    r"(\b(?:dims?|perm|axes|axis|ways|stages|block_[mnk]|threads|warps|"
    r"vector|split|tile|size|offset|stride|index|shape)\b[^\n]{0,40}?)(-?\d+)")
OP = re.compile(r"\b(?:xtensor|xloop|xtile|xkernel|arith|math|func)\.[a-z_.]+\b")
SSA_USE = re.compile(r"(?<![\w])%[A-Za-z_][\w$.]*|%\d+")
LOCATED = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error:", re.M)
DTYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "index",
          "f8E4M3FN", "f8E5M2"]
BAD_TEXT = ("LLVM ERROR", "Assertion", "UNREACHABLE", "Stack dump",
            "PLEASE submit a bug report", "AddressSanitizer", "runtime error:")


def seed_modules(bin_dir, files):
    """Modules (split at `// -----`) that xtile-opt accepts as they are."""
    out = []
    for path in files:
        text = pathlib.Path(path).read_text(errors="replace")
        for part in text.split("// -----"):
            if "func" not in part and "module" not in part:
                continue
            if len(part) > 40000:
                continue
            r = subprocess.run([str(bin_dir / "xtile-opt"), "-"], input=part,
                               capture_output=True, text=True, timeout=60)
            if r.returncode == 0:
                out.append(part)
    return out


class Mutator:
    def __init__(self, rng, ops):
        self.rng = rng
        self.ops = ops

    def size(self, text):
        types = list(TYPE.finditer(text))
        types = [m for m in types if any(c.isdigit() for c in m.group(2))]
        if not types:
            return None
        m = self.rng.choice(types)
        dims = m.group(2).split("x")[:-1]
        idx = [i for i, d in enumerate(dims) if d.isdigit()]
        i = self.rng.choice(idx)
        d = int(dims[i])
        dims[i] = str(self.rng.choice(
            [0, 1, 2, d + 1, max(d - 1, 0), d * 2, 3, 4096, 32768,
             2 ** 31 + 7, 17]))
        new = f"{m.group(1)}<{'x'.join(dims)}x{m.group(3)}>"
        return text[:m.start()] + new + text[m.end():]

    def dtype(self, text):
        types = list(TYPE.finditer(text))
        if not types:
            return None
        m = self.rng.choice(types)
        old = m.group(3)
        new = self.rng.choice([t for t in DTYPES if t != old])
        # Either this one type, or every type of this element type (which
        # keeps a module consistent and reaches the lowering).
        if self.rng.random() < 0.5:
            return text[:m.start()] + f"{m.group(1)}<{m.group(2)}{new}>" + text[m.end():]
        return TYPE.sub(lambda t: f"{t.group(1)}<{t.group(2)}{new}>"
                        if t.group(3) == old else t.group(0), text)

    def number(self, text):
        nums = list(NUMBER_IN_ATTR.finditer(text))
        if not nums:
            return None
        m = self.rng.choice(nums)
        v = int(m.group(2))
        new = self.rng.choice([v + 1, v - 1, 0, -1, 2 * v, 7, 64, 1 << 20])
        return text[:m.start(2)] + str(new) + text[m.end(2):]

    def op(self, text):
        found = list(OP.finditer(text))
        if not found:
            return None
        m = self.rng.choice(found)
        same = [o for o in self.ops if o.split(".")[0] == m.group(0).split(".")[0]]
        return text[:m.start()] + self.rng.choice(same or self.ops) + text[m.end():]

    def operand(self, text):
        uses = [m for m in SSA_USE.finditer(text)
                if not re.match(r"\s*(=|:)", text[m.end():m.end() + 3])
                or text[m.end():m.end() + 2] == ", "]
        names = sorted(set(m.group(0) for m in SSA_USE.finditer(text)))
        if len(uses) < 1 or len(names) < 2:
            return None
        m = self.rng.choice(uses)
        new = self.rng.choice([n for n in names if n != m.group(0)])
        return text[:m.start()] + new + text[m.end():]

    def line(self, text):
        lines = text.split("\n")
        body = [i for i, l in enumerate(lines)
                if l.strip() and not l.strip().startswith("//")]
        if not body:
            return None
        i = self.rng.choice(body)
        if self.rng.random() < 0.5:
            del lines[i]
        else:
            lines.insert(i, lines[i])
        return "\n".join(lines)

    def mutate(self, text):
        kinds = ["size", "size", "dtype", "number", "number", "op", "operand",
                 "line"]
        applied = []
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            for _ in range(5):
                kind = self.rng.choice(kinds)
                new = getattr(self, kind)(text)
                if new is not None and new != text:
                    text = new
                    applied.append(kind)
                    break
        return text, applied


FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.*)$", re.M)


def crash_site(err):
    """For a stack dump: the first frame in xtile's own code, or None when
    every frame is upstream's (libMLIR, libLLVM, the C library) or the
    tool's main. Our functions show as `xtile::...` or, unsymbolized, as an
    offset into an xtile-* executable."""
    for frame in FRAME.findall(err):
        if "PrintStackTrace" in frame or "SignalHandler" in frame:
            continue
        if "xtile::" in frame:
            return frame.strip()[:160]
        if re.search(r"/xtile-[a-z-]+\+0x", frame) and not re.match(r"(main|_start)\b", frame):
            return frame.strip()[:160]
    return None


def judge(cmd, path):
    """(why the run breaks the rule or None, stdout when it exits 0,
    whether the break is upstream's)."""
    try:
        r = subprocess.run(cmd + [path], capture_output=True, text=True,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return "timed out after 60 s", None, False
    out = r.stdout
    err = r.stderr
    if any(b in err for b in BAD_TEXT) or r.returncode < 0:
        first = next((l for l in err.splitlines()
                      if l.strip() and "PLEASE submit" not in l
                      and "Stack dump" not in l), "no output")
        why = f"exit {r.returncode}: {first.strip()[:200]}"
        if FRAME.search(err):
            site = crash_site(err)
            if site is None:
                # The crashing function: the frame after the signal's
                # trampoline in the C library.
                frames = FRAME.findall(err)
                libc = next((i for i, f in enumerate(frames) if "libc.so" in f), -1)
                top = frames[libc + 1] if 0 <= libc < len(frames) - 1 else "?"
                return f"{why}; in upstream code: {top.strip()[:160]}", None, True
            why += f"; in {site}"
        return why, None, False
    if r.returncode == 0:
        return None, out, False
    if r.returncode == 1 and LOCATED.search(err):
        return None, None, False
    first = err.strip().splitlines()[0][:200] if err.strip() else "no output"
    return f"exit {r.returncode} without a located error: {first}", None, False


def check(args):
    index, text, bin_dir, seed, ptx = args
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, f"mutant{index}.mlir")
        pathlib.Path(src).write_text(text)
        opt, translate = str(bin_dir / "xtile-opt"), str(bin_dir / "xtile-translate")
        why, _, upstream = judge([opt], src)
        if why:
            return index, "xtile-opt", why, upstream
        why, lowered, upstream = judge([opt, "--lower-to-kernel"], src)
        if why:
            return index, "xtile-opt --lower-to-kernel", why, upstream
        targets = []
        if lowered is not None:
            low = os.path.join(tmp, f"lowered{index}.mlir")
            pathlib.Path(low).write_text(lowered)
            targets.append(low)
        if "xkernel." in text:
            targets.append(src)
        for t in targets:
            modes = ["--mlir-to-cuda"] + (["--mlir-to-ptx"] if ptx else [])
            for mode in modes:
                why, _, upstream = judge([translate, mode], t)
                if why:
                    return index, f"xtile-translate {mode}", why, upstream
    return index, None, None, False


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--inputs", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--bin", default=str(ROOT / "build/bin"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", default="")
    p.add_argument("files", nargs="*")
    args = p.parse_args()
    bin_dir = pathlib.Path(args.bin)
    files = args.files or sorted(
        [str(f) for f in (ROOT / "examples").glob("*.mlir")] +
        [str(f) for f in (ROOT / "test").rglob("*.mlir")])
    start = time.time()
    seeds = seed_modules(bin_dir, files)
    if not seeds:
        print("xtile-mutate: no valid seed module", file=sys.stderr)
        return 2
    ops = sorted(set(o for s in seeds for o in OP.findall(s)))
    rng = random.Random(args.seed)
    mutator = Mutator(rng, ops)
    work, kinds = [], {}
    for i in range(args.inputs):
        text, applied = mutator.mutate(rng.choice(seeds))
        for k in applied:
            kinds[k] = kinds.get(k, 0) + 1
        work.append((i, text, bin_dir, args.seed, i % 10 == 0))
    texts = {w[0]: w[1] for w in work}
    findings, upstream = [], []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for index, tool, why, theirs in pool.map(check, work, chunksize=4):
            if not tool:
                continue
            (upstream if theirs else findings).append(index)
            label = "UPSTREAM" if theirs else "FINDING"
            print(f"{label} mutant {index} ({tool}): {why}", file=sys.stderr)
            if args.keep:
                pathlib.Path(args.keep).mkdir(parents=True, exist_ok=True)
                pathlib.Path(args.keep, f"mutant{index}.mlir").write_text(texts[index])
    secs = time.time() - start
    print(f"xtile-mutate: {args.inputs} mutants of {len(seeds)} seed modules "
          f"(seed {args.seed}) in {secs:.0f} s: {len(findings)} findings, "
          f"{len(upstream)} crashes in upstream MLIR; mutations: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
