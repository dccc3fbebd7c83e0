#!/usr/bin/env python3
"""Differential fuzzing: random valid Tensor IR graphs, compiled and run
under the CPU emulation, checked against the float64 reference.

    python3 tools/xtile-fuzz/xtile-fuzz.py --seeds 1-200 [--per-module 10]
        [--run build/bin/xtile-run] [--sanitize | --both-paths]
        [--keep failures/] [--print SEED]
    python3 tools/xtile-fuzz/xtile-fuzz.py --compile-only --seeds 1-200
        [--bin build/bin] [--ptxas PATH]

Each seed gives one graph: elementwise ops (with inputs kept away from
NaN and Inf: exp of tanh, log of 1 + |x|, division by 1 + |y|), broadcasts
of row vectors and of keepdim reductions over the last or another
dimension, transposes, the norm and softmax composites, and what models
contain: embedding gathers, slices concatenated or padded back, iota and
integer/boolean masks with select, matmuls with their epilogues (bias,
activation, residual), attention (scores, optional causal mask, softmax,
values), casts through f32; shapes with ragged and size-1 dimensions;
f32, f16, bf16 and i32. Graphs are batched into modules (xtile-run compiles
a module once); a module that fails is re-run one graph at a time to name
the seed. A graph the compiler rejects with a located error (an unsupported
construct) is counted apart from failures: crashes, compile errors of the
emitted code and mismatches. Exit status 1 when any graph failed.

--sanitize runs the emulated kernels under AddressSanitizer and
UndefinedBehaviorSanitizer (xtile-run --sanitize): an access outside a
buffer or a shared-memory allocation fails the graph even where the
numbers happen to come out right.

--both-paths runs each module through both of the compiler's outputs: the
CUDA C under the emulation, and the PTX path's own code (the LLVM IR that
NVPTX compiles, run on the CPU: xtile-run --backend=emu-ptx), and requires
their outputs to be bit-identical besides matching the reference
(xtile-run --compare-with). The module's target alternates between sm_80
and sm_90a by seed, so that both tensor-core families are exercised.

--fusion-legality checks a property of fusion instead of running: every
graph whose ops all lower to Tile IR one kernel each (fusion off) must
lower with fusion on, at the default cost and with fusion made free
(flops-per-byte=1e6, so that every legal candidate is taken). A fused
kernel that Tile IR rejects fails the graph. Its graphs also draw
parallel residual blocks (x + a(x) + b(act(c(x)))), whose projections
contract over different lengths.

--compile-only draws the same graphs at model sizes (token counts up to
4096, widths up to 32768; f64 too) and does not run them: each module is
lowered for sm_80 or sm_90, printed as CUDA C, emitted as PTX and
assembled by ptxas.
"""
import argparse
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

ROWS = [1, 3, 8, 37, 64, 128]
COLS = [1, 5, 32, 100, 256, 1000, 1024]
# --compile-only: the sizes of models (token counts up to 4k, widths up to
# 32k), too large to run under emulation.
LARGE_ROWS = [1, 7, 128, 1000, 4096]
LARGE_COLS = [64, 100, 1000, 4096, 11008, 32768]


def ttype(shape, dtype):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + dtype + ">"


class Graph:
    def __init__(self, seed, large=False, fusion=False):
        self.rng = random.Random(seed)
        self.seed = seed
        self.large = large
        self.fusion = fusion
        self.lines = []
        self.args = []
        self.count = 0
        r = self.rng
        if large:
            self.dtype = r.choices(["f32", "f16", "bf16", "f64", "i32"], [3, 2, 2, 1, 1])[0]
            self.rows, self.cols = r.choice(LARGE_ROWS), r.choice(LARGE_COLS)
        else:
            self.dtype = r.choices(["f32", "f16", "bf16", "i32"], [6, 1, 1, 1])[0]
            self.rows, self.cols = r.choice(ROWS), r.choice(COLS)
        self.float = self.dtype != "i32"
        if r.random() < 0.2:
            self.batch = [r.choice([2, 3])]
        else:
            self.batch = []

    def fresh(self):
        self.count += 1
        return f"%v{self.count}"

    def arg(self, shape, dtype=None):
        name = f"%a{len(self.args)}"
        self.args.append((name, shape, dtype or self.dtype))
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

    # Model patterns. Each takes a value of the graph's shape and returns one.

    def gather(self, x):
        """An embedding lookup: rows of a table picked by i32 ids (xtile-run
        draws integers in [1, 4]; tables have at least 5 rows)."""
        v, s = x
        vocab = self.rng.choice([5, 17, 100])
        table = self.arg([vocab, self.cols])
        ids = self.arg(s[:-1], "i32")
        rows = self.op(
            f"xtensor.gather {table[0]}[{ids[0]}] axis 0 : "
            f"{ttype([vocab, self.cols], self.dtype)}, {ttype(s[:-1], 'i32')} -> "
            f"{ttype(s, self.dtype)}", s)
        return self.binary(x, rows)

    def roll(self, x):
        """Slices of the last dimension concatenated in the other order."""
        v, s = x
        t = ttype(s, self.dtype)
        k = self.rng.randrange(1, self.cols)
        d = len(s) - 1
        head, tail = s[:-1] + [k], s[:-1] + [self.cols - k]
        zeros, ones = [0] * len(s), [1] * len(s)
        a = self.op(f"xtensor.slice {v} starts {zeros} limits {s[:-1] + [k]} "
                    f"strides {ones} : {t} -> {ttype(head, self.dtype)}", head)
        b = self.op(f"xtensor.slice {v} starts {zeros[:-1] + [k]} limits {s} "
                    f"strides {ones} : {t} -> {ttype(tail, self.dtype)}", tail)
        return self.op(f"xtensor.concat {b[0]}, {a[0]} dim {d} : "
                       f"{ttype(tail, self.dtype)}, {ttype(head, self.dtype)} -> {t}", s)

    def shift(self, x):
        """The last dimension shifted by p (a slice), padded back with a
        constant."""
        v, s = x
        t = ttype(s, self.dtype)
        p = self.rng.randrange(1, self.cols)
        kept = s[:-1] + [self.cols - p]
        zeros, ones = [0] * len(s), [1] * len(s)
        a = self.op(f"xtensor.slice {v} starts {zeros[:-1] + [p]} limits {s} "
                    f"strides {ones} : {t} -> {ttype(kept, self.dtype)}", kept)
        value = "0.5" if self.float else "3"
        low = self.rng.random() < 0.5
        lo, hi = zeros[:-1] + [p if low else 0], zeros[:-1] + [0 if low else p]
        return self.op(f"xtensor.pad {a[0]} low {lo} high {hi} value {value} : "
                       f"{self.dtype} : {ttype(kept, self.dtype)} -> {t}", s)

    def mask(self, x):
        """Positions compared through iota (a causal or a strided mask), or
        the data compared with itself, choosing between two values."""
        v, s = x
        t = ttype(s, self.dtype)
        it = ttype(s, "i32")
        mt = ttype(s, "i1")
        r = self.rng
        if r.random() < 0.6:
            row = self.op(f"xtensor.iota dim {len(s) - 2} : {it}", s)
            col = self.op(f"xtensor.iota dim {len(s) - 1} : {it}", s)
            if r.random() < 0.5:
                m = self.op(f"xtensor.cmp {r.choice(['le', 'gt'])}, {col[0]}, "
                            f"{row[0]} : {it}", s)
            else:
                two = self.op(f"xtensor.constant dense<{r.choice([2, 3])}> : {it}", s)
                rem = self.op(f"xtensor.rem {col[0]}, {two[0]} : {it}", s)
                zero = self.op(f"xtensor.constant dense<0> : {it}", s)
                m = self.op(f"xtensor.cmp eq, {rem[0]}, {zero[0]} : {it}", s)
        else:
            y = self.unary(x)
            m = self.op(f"xtensor.cmp {r.choice(['lt', 'ge', 'ne'])}, {v}, "
                        f"{y[0]} : {t}", s)
        if r.random() < 0.3:
            m2 = self.op(f"xtensor.cmp gt, {v}, {v} : {t}", s)
            m = self.op(f"xtensor.{r.choice(['or', 'xor'])} {m[0]}, {m2[0]} : {mt}", s)
        other = self.const(-2.0, s) if r.random() < 0.5 else self.unary(x)
        return self.op(f"xtensor.select {m[0]}, {v}, {other[0]} : {t}", s)

    def column_statistic(self, x):
        """A keepdim reduction over a dimension other than the last."""
        v, s = x
        d = self.rng.randrange(0, len(s) - 1)
        kinds = ["sum", "max", "min"] if self.dtype in ("f32", "i32") else ["max", "min"]
        red = list(s)
        red[d] = 1
        r = self.op(f"xtensor.reduce {self.rng.choice(kinds)} {v} dims [{d}] "
                    f"keepdim : {ttype(s, self.dtype)} -> {ttype(red, self.dtype)}", red)
        return self.binary(x, self.broadcast(r, s))

    def mlp(self, x):
        """x @ w + bias, an activation, the residual added: a matmul with
        its epilogue (the last dimension stays)."""
        v, s = x
        t = ttype(s, self.dtype)
        # A batched graph multiplies by a weight per batch, or by one weight
        # broadcast over the batch.
        w = self.arg(([s[0]] if self.batch and self.rng.random() < 0.5 else [])
                     + [self.cols, self.cols])
        if len(w[1]) < len(s):
            w = self.broadcast(w, s[:1] + w[1])
        wt = ttype(w[1], self.dtype)
        y = self.op(f"xtensor.matmul {v}, {w[0]} : {t}, {wt} -> {t}", s)
        if self.rng.random() < 0.7:
            bias = self.arg([self.cols])
            y = self.binary(y, self.broadcast(bias, s))
        act = self.rng.choice(["silu", "gelu erf", "gelu tanh", "tanh", "none"])
        if act != "none":
            y = self.op(f"xtensor.{act} {y[0]} : {t}", s)
        return self.op(f"xtensor.add {y[0]}, {v} : {t}", s)

    def parallel_residual(self, x):
        """x + a(x) + down(act(up(x))): two projections over different
        lengths (K = cols and K = the MLP's width) summed, as GPT-NeoX,
        Falcon and Cohere blocks do."""
        v, s = x
        width = self.rng.choice([2, 3, 4]) * max(self.cols, 8)
        lead = s[:-1]
        t = ttype(s, self.dtype)
        wide = lead + [width]
        wa = self.arg([self.cols, self.cols])
        wu = self.arg([self.cols, width])
        wd = self.arg([width, self.cols])
        if self.batch:
            wa, wu, wd = (self.broadcast(w, s[:1] + w[1]) for w in (wa, wu, wd))
        a = self.op(f"xtensor.matmul {v}, {wa[0]} : {t}, {ttype(wa[1], self.dtype)} -> {t}", s)
        u = self.op(f"xtensor.matmul {v}, {wu[0]} : {t}, {ttype(wu[1], self.dtype)} "
                    f"-> {ttype(wide, self.dtype)}", wide)
        act = self.rng.choice(["silu", "gelu erf", "tanh"])
        u = self.op(f"xtensor.{act} {u[0]} : {ttype(wide, self.dtype)}", wide)
        d = self.op(f"xtensor.matmul {u[0]}, {wd[0]} : {ttype(wide, self.dtype)}, "
                    f"{ttype(wd[1], self.dtype)} -> {t}", s)
        ad = self.op(f"xtensor.add {a[0]}, {d[0]} : {t}", s)
        return self.op(f"xtensor.add {ad[0]}, {v} : {t}", s)

    def attention(self, x):
        """softmax(x k^T * scale [+ causal mask]) v, with keys and values of
        n rows; x supplies the queries."""
        v, s = x
        r = self.rng
        d = self.cols
        n = r.choice([1, 7, 64, 130] + ([2048, 4096] if self.large else []))
        kv = s[:-2] + [n, d]
        k, vv = self.arg(kv), self.arg(kv)
        kt = s[:-2] + [d, n]
        sc = s[:-1] + [n]
        perm = list(range(len(s) - 2)) + [len(s) - 1, len(s) - 2]
        T = lambda shape: ttype(shape, self.dtype)
        kT = self.op(f"xtensor.transpose {k[0]} perm {perm} : {T(kv)} -> {T(kt)}", kt)
        scores = self.op(f"xtensor.matmul {v}, {kT[0]} : {T(s)}, {T(kt)} -> {T(sc)}", sc)
        scale = self.const(1.0 / d ** 0.5, sc)
        scores = self.op(f"xtensor.mul {scores[0]}, {scale[0]} : {T(sc)}", sc)
        if r.random() < 0.5:
            it = ttype(sc, "i32")
            row = self.op(f"xtensor.iota dim {len(sc) - 2} : {it}", sc)
            col = self.op(f"xtensor.iota dim {len(sc) - 1} : {it}", sc)
            m = self.op(f"xtensor.cmp le, {col[0]}, {row[0]} : {it}", sc)
            ninf = self.op(f"xtensor.constant dense<0xFF800000> : {ttype(sc, 'f32')}", sc)
            if self.dtype != "f32":
                ninf = self.op(f"xtensor.cast {ninf[0]} : {ttype(sc, 'f32')} -> {T(sc)}", sc)
            scores = self.op(f"xtensor.select {m[0]}, {scores[0]}, {ninf[0]} : {T(sc)}", sc)
        p = self.op(f"xtensor.softmax {scores[0]} dim {len(sc) - 1} : {T(sc)}", sc)
        return self.op(f"xtensor.matmul {p[0]}, {vv[0]} : {T(sc)}, {T(kv)} -> {T(s)}", s)

    def widen(self, x):
        """Through f32 and back (a 16-bit graph's casts)."""
        v, s = x
        f = self.op(f"xtensor.cast {v} : {ttype(s, self.dtype)} -> {ttype(s, 'f32')}", s)
        g = self.op(f"xtensor.tanh {f[0]} : {ttype(s, 'f32')}", s)
        return self.op(f"xtensor.cast {g[0]} : {ttype(s, 'f32')} -> {ttype(s, self.dtype)}", s)

    def composite(self, x):
        v, s = x
        t = ttype(s, self.dtype)
        comp = self.rng.choice(["softmax", "rms_norm", "layer_norm"])
        d = len(s) - 1
        if comp == "softmax":
            return self.op(f"xtensor.softmax {v} dim {d} : {t}", s)
        vt = ttype([self.cols], self.dtype)
        if comp == "rms_norm":
            w = self.arg([self.cols])
            return self.op(f"xtensor.rms_norm {v} weight {w[0]} eps 1.0e-5 : "
                           f"({t}, {vt}) -> {t}", s)
        w, b = self.arg([self.cols]), self.arg([self.cols])
        return self.op(f"xtensor.layer_norm {v} weight {w[0]} bias {b[0]} "
                       f"eps 1.0e-5 : ({t}, {vt}, {vt}) -> {t}", s)

    def transpose_twice(self, x):
        """A transpose there and back keeps the shape of the graph."""
        v, s = x
        t = ttype(s, self.dtype)
        tt = ttype([self.cols, self.rows], self.dtype)
        y = self.op(f"xtensor.transpose {v} perm [1, 0] : {t} -> {tt}",
                    [self.cols, self.rows])
        y = self.op(f"xtensor.neg {y[0]} : {tt}", y[1])
        return self.op(f"xtensor.transpose {y[0]} perm [1, 0] : {tt} -> {t}", s)

    def linear_statistic(self, x):
        """linear: x [rows, cols] @ w^T with w [k, cols], back to the graph's
        shape through a row statistic."""
        v, s = x
        t = ttype(s, self.dtype)
        k = self.rng.choice([8, 32, 96])
        w = self.arg([k, self.cols])
        kt = ttype([self.rows, k], self.dtype)
        y = self.op(f"xtensor.linear {v}, {w[0]} : ({t}, "
                    f"{ttype([k, self.cols], self.dtype)}) -> {kt}", [self.rows, k])
        y = self.unary(y)
        red = [self.rows, 1]
        r = self.op(f"xtensor.reduce sum {y[0]} dims [1] keepdim : "
                    f"{kt} -> {ttype(red, self.dtype)}", red)
        return self.binary(x, self.broadcast(r, s))

    def moves(self):
        """(weight, move) pairs that apply to this graph."""
        f, batched = self.float, bool(self.batch)
        ms = [
            (30, lambda x, vs: self.unary(x)),
            (25, lambda x, vs: self.binary(x, self.rng.choice(vs))),
            (10, lambda x, vs: self.binary(
                x, self.broadcast(self.arg([self.cols]), x[1]))),
            (10, lambda x, vs: self.binary(x, self.row_statistic(x))),
            (6, lambda x, vs: self.column_statistic(x)),
            (6, lambda x, vs: self.gather(x)),
            (6, lambda x, vs: self.mask(x)),
        ]
        if self.cols > 1:
            ms += [(4, lambda x, vs: self.roll(x)), (4, lambda x, vs: self.shift(x))]
        # Contractions accumulate in f32: f64 graphs have none.
        dots = self.dtype in ("f32", "f16", "bf16")
        if f:
            ms += [(10, lambda x, vs: self.composite(x))]
        if dots:
            if self.cols <= (4096 if self.large else 256):
                ms += [(5, lambda x, vs: self.mlp(x))]
            if self.cols <= 256:
                ms += [(4, lambda x, vs: self.attention(x))]
            if self.fusion and self.cols <= 256:
                ms += [(8, lambda x, vs: self.parallel_residual(x))]
            if self.dtype != "f32":
                ms += [(4, lambda x, vs: self.widen(x))]
        if not batched:
            ms += [(7, lambda x, vs: self.transpose_twice(x))]
            if dots:
                ms += [(6, lambda x, vs: self.linear_statistic(x))]
        return ms

    def build(self):
        r = self.rng
        shape = self.batch + [self.rows, self.cols]
        values = [self.arg(shape)]
        if r.random() < 0.5:
            values.append(self.arg(shape))
        moves = self.moves()
        weights = [w for w, _ in moves]
        for _ in range(r.randint(2, 8)):
            x = r.choice(values)
            move = r.choices([m for _, m in moves], weights)[0]
            values.append(move(x, values))
        outs = [values[-1]]
        if len(values) > 3 and r.random() < 0.3:
            outs.append(values[r.randrange(1, len(values) - 1)])
        return outs

    def text(self):
        outs = self.build()
        args = ", ".join(f"{n}: {ttype(s, d)}" for n, s, d in self.args)
        res = ", ".join(ttype(s, self.dtype) for _, s in outs)
        body = "\n".join(self.lines)
        ret = ", ".join(v for v, _ in outs)
        return (f"// seed {self.seed}\nfunc.func @g{self.seed}({args}) -> ({res}) {{\n"
                f"{body}\n  return {ret} : {res}\n}}\n")


def run(xrun, text, seed, sanitize=False, both_paths=False):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        cmd = [xrun, "--backend=emu", f"--seed={seed}", path]
        if sanitize:
            cmd.insert(1, "--sanitize")
        if both_paths:
            target = "sm_90a" if seed % 2 else "sm_80"
            cmd[1:2] = ["--backend=emu-ptx", "--compare-with=emu",
                        f"--target={target}"]
        r = subprocess.run(cmd,
                           capture_output=True, text=True, timeout=900)
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return 124, "timed out"
    finally:
        os.unlink(path)


class Compiler:
    """--compile-only: lower to Kernel IR for a target, print CUDA C, emit
    PTX through NVPTX and assemble it with ptxas (when it is installed)."""

    def __init__(self, bin_dir, ptxas):
        self.opt = str(bin_dir / "xtile-opt") if bin_dir else "xtile-opt"
        self.translate = (str(bin_dir / "xtile-translate") if bin_dir
                          else "xtile-translate")
        self.ptxas = ptxas

    def __call__(self, text, seed):
        target = random.Random(seed).choice(["sm_80", "sm_90"])
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "g.mlir")
            pathlib.Path(src).write_text(text)
            steps = [
                [self.opt, f"--lower-to-kernel=target={target}", src,
                 "-o", os.path.join(tmp, "k.mlir")],
                [self.translate, "--mlir-to-cuda", os.path.join(tmp, "k.mlir"),
                 "-o", os.path.join(tmp, "k.cu")],
                [self.translate, "--mlir-to-ptx", os.path.join(tmp, "k.mlir"),
                 "-o", os.path.join(tmp, "k.ptx")],
            ]
            if self.ptxas:
                steps.append([self.ptxas, f"-arch={target}",
                              os.path.join(tmp, "k.ptx"), "-o",
                              os.path.join(tmp, "k.cubin")])
            for cmd in steps:
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True,
                                       timeout=900)
                except subprocess.TimeoutExpired:
                    return 124, f"{os.path.basename(cmd[0])} timed out"
                if r.returncode != 0:
                    return r.returncode, (f"{os.path.basename(cmd[0])} ({target}): "
                                          + r.stdout + r.stderr)
        return 0, ""


class FusionLegality:
    """--fusion-legality: Tile IR's verdict on the kernels fusion builds.
    A graph whose single-op kernels do not all lower is the graph's own
    limit (counted as unsupported); one whose fused kernels do not lower
    when its single-op kernels do is a fusion bug."""

    TILE = ["--xtile-select-schedule", "--convert-xloop-to-xtile"]

    def __init__(self, bin_dir):
        self.opt = str(bin_dir / "xtile-opt") if bin_dir else "xtile-opt"

    def __call__(self, text, seed):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "g.mlir")
            pathlib.Path(src).write_text(text)
            unfused = [self.opt, src, "--xtensor-decompose",
                       "--xtensor-normalize", "--convert-xtensor-to-xloop",
                       "--xloop-compute-f32"] + self.TILE + ["-o", os.devnull]
            r = subprocess.run(unfused, capture_output=True, text=True,
                               timeout=900)
            if r.returncode != 0:
                return r.returncode, "without fusion: " + r.stdout + r.stderr
            for cost in ["", "=flops-per-byte=1e6"]:
                fused = [self.opt, src, f"--lower-to-tile{cost}", "-o",
                         os.devnull]
                r = subprocess.run(fused, capture_output=True, text=True,
                                   timeout=900)
                if r.returncode != 0:
                    return r.returncode, (
                        f"FUSION BUILT A KERNEL TILE IR REJECTS "
                        f"(--lower-to-tile{cost}; every kernel lowers "
                        f"unfused):\n" + r.stdout + r.stderr)
        return 0, ""


def classify(rc, out):
    if rc == 0:
        return "pass"
    if out.startswith("FUSION BUILT"):
        return "fail"
    if "DIFFERENT" in out:
        return "fail"
    # A located error from the compiler that names what it does not support.
    if ("not supported" in out or "not lowered" in out or "supports" in out
            or "needs libdevice" in out) \
            and "error:" in out and "MISMATCH" not in out:
        return "unsupported"
    return "fail"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="1-200")
    p.add_argument("--per-module", type=int, default=10)
    p.add_argument("--run", default=str(ROOT / "build/bin/xtile-run"))
    p.add_argument("--compile-only", action="store_true",
                   help="graphs at model sizes, lowered for sm_80 or sm_90, "
                        "printed as CUDA C and PTX, assembled with ptxas; "
                        "not run")
    p.add_argument("--bin", default="",
                   help="--compile-only, --fusion-legality: the directory of xtile-opt and "
                        "xtile-translate (default: PATH)")
    p.add_argument("--ptxas", default=shutil.which("ptxas") or
                   ("/usr/local/cuda/bin/ptxas"
                    if os.path.exists("/usr/local/cuda/bin/ptxas") else ""))
    p.add_argument("--sanitize", action="store_true",
                   help="run the emulated kernels under AddressSanitizer "
                        "and UndefinedBehaviorSanitizer")
    p.add_argument("--both-paths", action="store_true",
                   help="run the PTX path's code on the CPU too and require "
                        "bit-identical outputs from both paths")
    p.add_argument("--fusion-legality", action="store_true",
                   help="check that fusion never builds a kernel Tile IR "
                        "rejects (graphs with parallel residual blocks "
                        "too); not run")
    p.add_argument("--keep", default="")
    p.add_argument("--print", type=int, default=None,
                   help="print the graph of this seed and exit")
    args = p.parse_args()
    large = args.compile_only
    fusion = args.fusion_legality
    if args.print is not None:
        print(Graph(args.print, large, fusion).text())
        return 0
    if fusion:
        execute = FusionLegality(pathlib.Path(args.bin) if args.bin else None)
    elif large:
        execute = Compiler(pathlib.Path(args.bin) if args.bin else None, args.ptxas)
    else:
        if args.sanitize and args.both_paths:
            p.error("--sanitize and --both-paths are exclusive: the "
                    "sanitizers instrument the CUDA C path only")
        execute = lambda text, seed: run(args.run, text, seed, args.sanitize,
                                         args.both_paths)
    lo, hi = (int(x) for x in args.seeds.split("-"))
    seeds = list(range(lo, hi + 1))
    counts = {"pass": 0, "unsupported": 0, "fail": 0}
    unsupported, failures = [], []
    start = time.time()
    for i in range(0, len(seeds), args.per_module):
        batch = seeds[i:i + args.per_module]
        texts = {s: Graph(s, large, fusion).text() for s in batch}
        rc, out = execute("\n".join(texts.values()), batch[0])
        if rc == 0:
            counts["pass"] += len(batch)
            continue
        for s in batch:
            rc, out = execute(texts[s], s)
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
    mode = ("compiled" if large else
            "graphs checked for fusion legality" if fusion else "graphs")
    print(f"xtile-fuzz: {len(seeds)} {mode} (seeds {lo}-{hi}) in {secs:.0f} s: "
          f"{counts['pass']} passed, {counts['unsupported']} rejected as "
          f"unsupported, {counts['fail']} failed")
    if large and not args.ptxas:
        print("  ptxas not found: PTX emitted but not assembled")
    for s, why in unsupported:
        print(f"  unsupported seed {s}: {why}")
    if failures:
        print("  failed seeds: " + " ".join(map(str, failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
