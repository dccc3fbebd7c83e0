#!/usr/bin/env python3
"""Differential fuzzing: random valid Tensor IR graphs, compiled and run
under the CPU emulation, checked against the float64 reference.

    python3 tools/xtile-fuzz/xtile-fuzz.py --seeds 1-200 [--per-module 10]
        [--run build/bin/xtile-run] [--keep failures/] [--print SEED]

Each seed gives one graph: elementwise ops (with inputs kept away from
NaN and Inf: exp of tanh, log of 1 + |x|, division by 1 + |y|), broadcasts
of row vectors and of keepdim reductions, transposes, reductions, the
norm and softmax composites, matmuls; shapes with ragged and size-1
dimensions; f32, f16, bf16 and i32. Graphs are batched into modules
(xtile-run compiles a module once); a module that fails is re-run one graph
at a time to name the seed. A graph the compiler rejects with a located
error (an unsupported construct) is counted apart from failures: crashes,
compile errors of the emitted code and mismatches. Exit status 1 when any
graph failed.
"""
import argparse
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

ROWS = [1, 3, 8, 37, 64, 128]
COLS = [1, 5, 32, 100, 256, 1000, 1024]


def ttype(shape, dtype):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + dtype + ">"


class Graph:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.seed = seed
        self.lines = []
        self.args = []
        self.count = 0
        r = self.rng
        self.dtype = r.choices(["f32", "f16", "bf16", "i32"], [6, 1, 1, 1])[0]
        self.float = self.dtype != "i32"
        self.rows, self.cols = r.choice(ROWS), r.choice(COLS)
        if r.random() < 0.2:
            self.batch = [r.choice([2, 3])]
        else:
            self.batch = []

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def arg(self, shape):
        name = f"%a{len(self.args)}"
        self.args.append((name, shape))
        return (name, shape)

    def emit(self, text):
        self.lines.append("  " + text)

    def op(self, text, shape):
        v = self.fresh()
        self.emit(f"{v} = {text}")
        return (v, shape)

    # Ops that keep values bounded.
    def unary(self, x):
        v, s = x
        t = ttype(s, self.dtype)
        if not self.float:
            k = self.rng.choice(["neg", "abs"])
            return self.op(f"xtensor.{k} {v} : {t}", s)
        k = self.rng.choice(["neg", "abs", "tanh", "sigmoid", "exp", "log",
                             "sqrt", "erf", "sin", "floor"])
        if k == "exp":
            y = self.op(f"xtensor.tanh {v} : {t}", s)
            return self.op(f"xtensor.exp {y[0]} : {t}", s)
        if k in ("log", "sqrt"):
            a = self.op(f"xtensor.abs {v} : {t}", s)
            if k == "log":
                one = self.const(1.0, s)
                a = self.op(f"xtensor.add {a[0]}, {one[0]} : {t}", s)
            return self.op(f"xtensor.{k} {a[0]} : {t}", s)
        return self.op(f"xtensor.{k} {v} : {t}", s)

    def const(self, value, shape):
        t = ttype(shape, self.dtype)
        lit = f"{value:.6f}" if self.float else str(int(value))
        return self.op(f"xtensor.constant dense<{lit}> : {t}", shape)

    def binary(self, x, y):
        (a, s), (b, _) = x, y
        t = ttype(s, self.dtype)
        ks = ["add", "sub", "mul", "max", "min"] + (["div"] if self.float else [])
        k = self.rng.choice(ks)
        if k == "div":
            d = self.op(f"xtensor.abs {b} : {t}", s)
            one = self.const(1.0, s)
            d = self.op(f"xtensor.add {d[0]}, {one[0]} : {t}", s)
            return self.op(f"xtensor.div {a}, {d[0]} : {t}", s)
        return self.op(f"xtensor.{k} {a}, {b} : {t}", s)

    def broadcast(self, x, shape):
        v, s = x
        return self.op(f"xtensor.broadcast {v} : {ttype(s, self.dtype)} -> "
                       f"{ttype(shape, self.dtype)}", shape)

    def row_statistic(self, x):
        """A keepdim reduction of the last dimension, broadcast back."""
        v, s = x
        # A 16-bit row sum of large rows overflows: keep away from Inf.
        kinds = ["sum", "max", "min"] if self.dtype in ("f32", "i32") else ["max", "min"]
        kind = self.rng.choice(kinds)
        red = s[:-1] + [1]
        r = self.op(f"xtensor.reduce {kind} {v} dims [{len(s) - 1}] keepdim : "
                    f"{ttype(s, self.dtype)} -> {ttype(red, self.dtype)}", red)
        return self.broadcast(r, s)

    def build(self):
        r = self.rng
        shape = self.batch + [self.rows, self.cols]
        t = ttype(shape, self.dtype)
        values = [self.arg(shape)]
        if r.random() < 0.5:
            values.append(self.arg(shape))
        ops = r.randint(2, 8)
        for _ in range(ops):
            x = r.choice(values)
            choice = r.random()
            if choice < 0.3:
                values.append(self.unary(x))
            elif choice < 0.55:
                y = r.choice(values)
                values.append(self.binary(x, y))
            elif choice < 0.65:
                vec = self.arg([self.cols])
                values.append(self.binary(x, self.broadcast(vec, shape)))
            elif choice < 0.75:
                values.append(self.binary(x, self.row_statistic(x)))
            elif choice < 0.85 and self.float:
                comp = r.choice(["softmax", "rms_norm", "layer_norm"])
                d = len(shape) - 1
                if comp == "softmax":
                    values.append(self.op(f"xtensor.softmax {x[0]} dim {d} : {t}", shape))
                elif comp == "rms_norm":
                    w = self.arg([self.cols])
                    values.append(self.op(
                        f"xtensor.rms_norm {x[0]} weight {w[0]} eps 1.0e-5 : "
                        f"({t}, {ttype([self.cols], self.dtype)}) -> {t}", shape))
                else:
                    w, b = self.arg([self.cols]), self.arg([self.cols])
                    vt = ttype([self.cols], self.dtype)
                    values.append(self.op(
                        f"xtensor.layer_norm {x[0]} weight {w[0]} bias {b[0]} "
                        f"eps 1.0e-5 : ({t}, {vt}, {vt}) -> {t}", shape))
            elif choice < 0.92 and not self.batch:
                # A transpose there and back keeps the shape of the graph.
                tt = ttype([self.cols, self.rows], self.dtype)
                y = self.op(f"xtensor.transpose {x[0]} perm [1, 0] : {t} -> {tt}",
                            [self.cols, self.rows])
                y = (y[0], [self.cols, self.rows])
                y = self.op(f"xtensor.neg {y[0]} : {tt}", y[1])
                values.append(self.op(
                    f"xtensor.transpose {y[0]} perm [1, 0] : {tt} -> {t}", shape))
            elif self.float and not self.batch:
                k = r.choice([8, 32, 96])
                w = self.arg([k, self.cols])
                kt = ttype([self.rows, k], self.dtype)
                # linear: x [rows, cols] @ w^T with w [k, cols]
                y = self.op(f"xtensor.linear {x[0]}, {w[0]} : ({t}, "
                            f"{ttype([k, self.cols], self.dtype)}) -> {kt}",
                            [self.rows, k])
                y = self.unary(y)
                # Back to the graph's shape through a row statistic of y.
                red = [self.rows, 1]
                s = self.op(f"xtensor.reduce sum {y[0]} dims [1] keepdim : "
                            f"{kt} -> {ttype(red, self.dtype)}", red)
                values.append(self.binary(x, self.broadcast(s, shape)))
            else:
                values.append(self.binary(x, self.row_statistic(x)))
        outs = [values[-1]]
        if len(values) > 3 and r.random() < 0.3:
            outs.append(values[r.randrange(1, len(values) - 1)])
        return outs

    def text(self):
        outs = self.build()
        args = ", ".join(f"{n}: {ttype(s, self.dtype)}" for n, s in self.args)
        res = ", ".join(ttype(s, self.dtype) for _, s in outs)
        body = "\n".join(self.lines)
        ret = ", ".join(v for v, _ in outs)
        return (f"// seed {self.seed}\nfunc.func @g{self.seed}({args}) -> ({res}) {{\n"
                f"{body}\n  return {ret} : {res}\n}}\n")


def run(xrun, text, seed):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([xrun, "--backend=emu", f"--seed={seed}", path],
                           capture_output=True, text=True, timeout=900)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return 124, "timed out"
    finally:
        os.unlink(path)


def classify(rc, out):
    if rc == 0:
        return "pass"
    # A located error from the compiler that names what it does not support.
    if ("not supported" in out or "not lowered" in out or "supports" in out) \
            and "error:" in out and "MISMATCH" not in out:
        return "unsupported"
    return "fail"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="1-200")
    p.add_argument("--per-module", type=int, default=10)
    p.add_argument("--run", default=str(ROOT / "build/bin/xtile-run"))
    p.add_argument("--keep", default="")
    p.add_argument("--print", type=int, default=None,
                   help="print the graph of this seed and exit")
    args = p.parse_args()
    if args.print is not None:
        print(Graph(args.print).text())
        return 0
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    counts = {"pass": 0, "unsupported": 0, "fail": 0}
    unsupported, failures = [], []
    start = time.time()
    for i in range(0, len(seeds), args.per_module):
        batch = seeds[i:i + args.per_module]
        texts = {s: Graph(s).text() for s in batch}
        rc, out = run(args.run, "\n".join(texts.values()), batch[0])
        if rc == 0:
            counts["pass"] += len(batch)
            continue
        for s in batch:
            rc, out = run(args.run, texts[s], s)
            kind = classify(rc, out)
            counts[kind] += 1
            if kind == "unsupported":
                line = next((l for l in out.splitlines() if "error:" in l), "")
                unsupported.append((s, line.split("error:", 1)[-1].strip()))
            elif kind == "fail":
                failures.append(s)
                print(f"FAIL seed {s}:\n{texts[s]}\n{out}", file=sys.stderr)
                if args.keep:
                    pathlib.Path(args.keep).mkdir(parents=True, exist_ok=True)
                    pathlib.Path(args.keep, f"seed{s}.mlir").write_text(texts[s])
    secs = time.time() - start
    print(f"xtile-fuzz: {len(seeds)} graphs (seeds {lo}-{hi}) in {secs:.0f} s: "
          f"{counts['pass']} passed, {counts['unsupported']} rejected as "
          f"unsupported, {counts['fail']} failed")
    for s, why in unsupported:
        print(f"  unsupported seed {s}: {why}")
    if failures:
        print("  failed seeds: " + " ".join(map(str, failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
