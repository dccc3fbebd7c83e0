#!/usr/bin/env python3
"""Instructions per element: the SASS that xtile's row kernels execute per
element of the output, beside idiomatic Triton kernels for the same ops, at
32768 rows x {1024, 4096, 8192} in f32 and bf16. Compiles only; no GPU
needed.

    build/venv/bin/python bench/instructions.py [--quick] [--only softmax,...]
        [--detail] [--keep DIR] [--arch sm_90] [--opt ...] [--translate ...]
        [--ptxas ...]

--quick runs width 4096 only; --fast-math lowers xtile's kernels with
fast-math=true (docs/Math.md); --detail adds every kernel's static and
dynamic counts; --keep keeps the IR, PTX, CUDA C and cubins.

Ops: RMSNorm, LayerNorm, softmax, log-softmax, SwiGLU (silu(a) * b), GELU
(erf and tanh approximation) and residual add + RMSNorm (one output, as in
bench/gpu/cases.py, whose Tensor IR generators are reused).

xtile: `xtile-opt --lower-to-kernel=target=ARCH`, then
  PTX path:    `xtile-translate --mlir-to-ptx --ptx-chip=ARCH`, `ptxas -arch=ARCH`
  CUDA C path: `xtile-translate --mlir-to-cuda`, `nvcc -cubin -arch=ARCH`.
Triton: the same ops written as Triton kernels (one program per row, BLOCK =
next power of two of the width, num_warps = min(max(BLOCK // 256, 1), 8) as
in Triton's layer-norm tutorial, the width a constexpr as Inductor's static
shapes make it, pointers 16-byte aligned as the JIT specializes them, bf16
loaded, computed in f32 and stored as bf16), compiled for GPUTarget("cuda",
ARCH, 32) with triton.compile, which needs no GPU; its cubin is assembled by
Triton's own bundled ptxas.

Counting: `cuobjdump -sass` of each cubin; every instruction counts except
NOP and the trailing branch-to-self. "static" is that count per kernel.
The dynamic estimate per thread is the heaviest path from the entry to an
EXIT through the control-flow graph with back edges removed, preferring the
path through the fewest CALLs (the out-of-line slow paths of IEEE division
and square root are taken only for denormal or huge operands), where an
instruction inside a loop (a backward branch) weighs the loop's trip count.
The trip count comes from the Kernel IR: the kernel's scf.for loops (constant
bounds) matched in order to its SASS loops (ptxas unrolls some away),
divided by the unroll factor (global loads and stores in the SASS body over
those in the scf.for body); where that is not unique the number is marked
"?" and those loops weigh 1. Both sides of a warp-divergent branch are not
added up; the heavier one counts.
SASS/elem = sum over a program's launches of (dynamic instructions per
thread x threads launched) / (rows x width): with one row per block this is
the per-thread count over the elements of the row each thread handles.
Registers are `cuobjdump -res-usage` of the row kernel (the largest launch).

Needs build/bin/xtile-opt and xtile-translate; ptxas, nvcc and cuobjdump on
PATH, in /usr/local/cuda/bin or (ptxas, cuobjdump) in Triton's package; a
missing tool or Triton skips its column, saying why. A benchmark: prints
numbers, never fails on them.
"""
import argparse
import glob
import itertools
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench/gpu"))
import cases  # noqa: E402  (the Tensor IR of bench/gpu's row ops)

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # 3.9's default, silenced
try:
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice
    TRITON_ERROR = None
except Exception as e:  # noqa: BLE001 - any import failure skips Triton
    triton = None
    TRITON_ERROR = f"{type(e).__name__}: {e}"

M = cases.M
WIDTHS = [1024, 4096, 8192]
DTYPES = ["f32", "bf16"]
OPS = ["rmsnorm", "layernorm", "softmax", "log_softmax", "swiglu", "gelu_erf",
       "gelu_tanh", "add_rmsnorm"]


# --------------------------------------------------------------- Tensor IR
def tensor_ir(op, n, dtype):
    """The Tensor IR module of one case: bench/gpu/cases.py's where it has
    the op, else the same shape of function with the op it lacks."""
    if op in ("rmsnorm", "layernorm", "softmax", "swiglu", "add_rmsnorm"):
        return cases.row_case(op, n, dtype)["mlir"]
    x = cases.t([M, n], dtype)
    body = {"log_softmax": f"%y = xtensor.log_softmax %x dim 1 : {x}",
            "gelu_erf": f"%y = xtensor.gelu erf %x : {x}",
            "gelu_tanh": f"%y = xtensor.gelu tanh %x : {x}"}[op]
    return (f"func.func @{op}_{dtype}_{n}(%x: {x}) -> {x} {{\n  {body}\n"
            f"  return %y : {x}\n}}\n")


# ---------------------------------------------------------------- tools
def triton_bin():
    dirs = []
    if triton is not None:
        dirs.append(pathlib.Path(triton.__file__).parent / "backends/nvidia/bin")
    dirs += [pathlib.Path(p) for p in glob.glob(str(
        ROOT / "build/venv/lib/python3*/site-packages/triton/backends/nvidia/bin"))]
    return [d for d in dirs if d.is_dir()]


def tool(name, triton_names=()):
    found = shutil.which(name)
    if found:
        return found
    if os.path.exists(f"/usr/local/cuda/bin/{name}"):
        return f"/usr/local/cuda/bin/{name}"
    for d in triton_bin():
        for n in triton_names:
            if (d / n).exists():
                return str(d / n)
    return None


def version(path):
    try:
        out = subprocess.run([path, "--version"], capture_output=True,
                             text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"release ([\d.]+)", out)
    return m.group(1) if m else "?"


def run(cmd, **kw):
    """(returncode, stdout, stderr) of cmd; a missing binary is a failure."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, **kw)
        return r.returncode, r.stdout, r.stderr
    except OSError as e:
        return 1, "", str(e)


def first_line(text):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[0][:150] if lines else "(no message)"


# ---------------------------------------------------------------- Kernel IR
CONST = re.compile(r"(%[\w]+) = arith\.constant (-?\d+) : index")
FOR = re.compile(r"scf\.for %[\w]+ = (%[\w]+) to (%[\w]+) step (%[\w]+)")
VEC = re.compile(r"vector<(\d+)x(\w+)>")
BYTES = {"f32": 4, "bf16": 2, "f16": 2, "i32": 4, "i64": 8, "f64": 8, "i8": 1,
         "i1": 1, "i16": 2}


def mem_ops(line):
    """(LDG, STG) count one Kernel IR global load or store becomes (16-byte
    vectors at most)."""
    store = "xkernel.store" in line
    if not (store or "xkernel.load" in line) or "global>" not in line:
        return (0, 0)
    v = VEC.search(line)
    n = (max(1, -(-int(v.group(1)) * BYTES.get(v.group(2), 4) // 16))
         if v else 1)
    return (0, n) if store else (n, 0)


def kernel_ir(text):
    """{kernel: [(trip count or None, (global loads, global stores) in
    the body, nesting depth)]} for the scf.for loops of every xkernel.func, in text
    order, and the launches [(kernel, threads)] of the program."""
    loops, kernel, consts, stack, depth = {}, None, {}, [], 0
    for line in text.splitlines():
        m = re.search(r"xkernel\.func @(\w+)", line)
        if m:
            kernel, consts, stack, depth = m.group(1), {}, [], 0
            loops[kernel] = []
        if kernel is None:
            continue
        c = CONST.search(line)
        if c:
            consts[c.group(1)] = int(c.group(2))
        f = FOR.search(line)
        if f:
            lb, ub, st = (consts.get(g) for g in f.groups())
            trip = (None if None in (lb, ub, st) or st <= 0
                    else max(0, -(-(ub - lb) // st)))
            loops[kernel].append([trip, (0, 0), len(stack)])
            stack.append((len(loops[kernel]) - 1, depth))
        elif stack:
            ld, st = mem_ops(line)
            old = loops[kernel][stack[-1][0]][1]
            loops[kernel][stack[-1][0]][1] = (old[0] + ld, old[1] + st)
        depth += line.count("{") - line.count("}")
        while stack and depth <= stack[-1][1]:
            stack.pop()
    launches = []
    for m in re.finditer(r"xkernel\.launch @(\w+)\(.*?grid \[([\d, ]+)\] "
                         r"block \[([\d, ]+)\]", text):
        threads = 1
        for v in (m.group(2) + "," + m.group(3)).split(","):
            threads *= int(v)
        launches.append((m.group(1), threads))
    return {k: [tuple(v) for v in ls] for k, ls in loops.items()}, launches


# ---------------------------------------------------------------- SASS
INSTR = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def parse_sass(text):
    """{kernel: [(addr, predicated, opcode, operands)]} from cuobjdump -sass."""
    out, kernel = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            kernel = m.group(1)
            out[kernel] = []
            continue
        m = INSTR.match(line)
        if m and kernel is not None:
            body = m.group(2)
            pred = False
            if body.startswith("@"):
                p, body = body.split(None, 1)
                pred = p not in ("@PT",)
            parts = body.split(None, 1)
            out[kernel].append((int(m.group(1), 16), pred, parts[0],
                                parts[1] if len(parts) > 1 else ""))
    return out


def target(operands):
    hexes = re.findall(r"0x[0-9a-f]+", operands)
    return int(hexes[-1], 16) if hexes else None


def analyze(instrs, ir_loops):
    """{"static": count, "dyn": dynamic estimate per thread, "exact": every
    trip count known, "loops": [(static body, trips)]} (see the module
    docstring)."""
    code = [i for i in instrs if i[2] != "NOP"]
    if code and code[-1][2].startswith("BRA") and target(code[-1][3]) == code[-1][0]:
        code = code[:-1]
    static = len(code)
    index = {ins[0]: k for k, ins in enumerate(code)}

    def successors(k):
        addr, pred, op, ops = code[k]
        if op == "EXIT" or op.startswith("RET"):
            return [k + 1] if pred and op == "EXIT" else []
        if op.startswith("BRA") or op.startswith("JMP"):
            t = target(ops)
            out = [index[t]] if t in index else []
            if pred or "," in ops:  # predicated, or a predicate operand
                out.append(k + 1)
            return out
        return [k + 1]

    # The kernel proper: what the entry reaches without CALLs (the called
    # slow-path subroutines follow the last EXIT).
    reach, todo = set(), [0]
    while todo:
        k = todo.pop()
        if k < len(code) and k not in reach:
            reach.add(k)
            todo += successors(k)
    loops = []
    for k, (addr, _, op, ops) in enumerate(code):
        if k in reach and op.startswith("BRA"):
            t = target(ops)
            if t is not None and t <= addr and t in index:
                loops.append([index[t], k])
    loops.sort()
    outer = [lp for lp in loops
             if not any(o != lp and o[0] <= lp[0] and lp[1] <= o[1] for o in loops)]
    # Trip counts of the SASS loops from the Kernel IR's top-level scf.for:
    # every order-preserving match of the SASS loops to scf.for loops (ptxas
    # may have unrolled some away) whose unroll factors divide the trip
    # counts; used when all such matches give the same trip counts.
    ir_top = [lp for lp in ir_loops if lp[2] == 0]
    trips = {tuple(lp): 1 for lp in loops}
    exact = not loops
    if loops and len(outer) == len(loops):
        mems = [tuple(sum(1 for ins in code[a:b + 1]
                          if ins[2].split(".")[0] in kinds)
                      for kinds in (("LDG", "LD"), ("STG", "ST")))
                for a, b in outer]
        answers = set()
        for pick in itertools.combinations(ir_top, len(outer)):
            got = []
            for mem, (trip, ir_mem, _) in zip(mems, pick):
                base = ir_mem[0] or ir_mem[1]
                factor = (mem[0] or mem[1]) // base if base else 0
                if factor and (mem[0], mem[1]) != (factor * ir_mem[0],
                                                   factor * ir_mem[1]):
                    factor = 0
                if trip is None or factor < 1 or trip % factor:
                    break
                got.append(trip // factor)
            else:
                answers.add(tuple(got))
        if len(answers) == 1:
            trips = {tuple(lp): t for lp, t in zip(outer, answers.pop())}
            exact = True
    weight = [1] * len(code)
    for (a, b), t in trips.items():
        for k in range(a, b + 1):
            weight[k] *= t
    # Heaviest CALL-avoiding path in address order (back edges dropped).
    best = [None] * (len(code) + 1)
    best[0] = (0, 0)
    result = None

    def better(x, y):
        return y is None or (x[0], -x[1]) < (y[0], -y[1])

    def push(k, v):
        if k < len(best) and better(v, best[k]):
            best[k] = v

    for k, (addr, pred, op, ops) in enumerate(code):
        v = best[k]
        if v is None:
            continue
        v = (v[0] + (1 if op.startswith("CALL") else 0), v[1] + weight[k])
        if op == "EXIT" and better(v, result):
            result = v
        for s in successors(k):
            if s > k:
                push(s, v)
    dyn = result[1] if result else None
    return {"static": static, "dyn": dyn, "exact": exact,
            "loops": [(b - a + 1, trips[tuple((a, b))]) for a, b in loops]}


def res_usage(text):
    """{kernel: registers} from cuobjdump -res-usage."""
    out, kernel = {}, None
    for line in text.splitlines():
        m = re.search(r"Function (\S+?):", line)
        if m:
            kernel = m.group(1)
        m = re.search(r"REG:(\d+)", line)
        if m and kernel:
            out[kernel] = int(m.group(1))
    return out


def sass_of(cubin, cuobjdump):
    rc, sass, err = run([cuobjdump, "-sass", str(cubin)])
    if rc:
        return None, None, first_line(err)
    rc2, res, _ = run([cuobjdump, "-res-usage", str(cubin)])
    return parse_sass(sass), res_usage(res) if rc2 == 0 else {}, None


def per_element(sass, regs, ir_loops, launches, elements):
    """A dict: SASS per element ("per_elem"), the registers of the largest
    launch, a note of the loops (static body x trips), whether every trip
    count is known, and per kernel (name, threads launched, static,
    dynamic per thread, loops); or an error string."""
    total, notes, exact, kernels = 0, [], True, []
    for name, threads in launches:
        if name not in sass:
            return f"{name} missing from the cubin"
        a = analyze(sass[name], ir_loops.get(name, []))
        if a["dyn"] is None:
            return f"{name}: no path to EXIT"
        total += a["dyn"] * threads
        exact &= a["exact"]
        loops = " ".join(f"{body}x{trips if a['exact'] else '?'}"
                         for body, trips in a["loops"])
        if loops:
            notes.append(loops)
        kernels.append((name, threads, a["static"], a["dyn"], loops,
                        regs.get(name)))
    main = max(launches, key=lambda lt: lt[1])[0]
    return {"per_elem": total / elements, "regs": regs.get(main),
            "loops": " ".join(notes), "exact": exact, "kernels": kernels}


# ---------------------------------------------------------------- xtile
def xtile_case(op, n, dtype, args, tools, tmp):
    """{"ptx": (...), "cuda": (...)} of per_element results or error strings."""
    stem = pathlib.Path(tmp, f"{op}_{dtype}_{n}")
    src = stem.with_suffix(".mlir")
    src.write_text(tensor_ir(op, n, dtype))
    rc, _, err = run([args.opt, str(src), "-o", os.devnull])
    if rc:
        return {"ptx": "parse failed: " + first_line(err),
                "cuda": "parse failed"}
    kir = stem.with_suffix(".kernel.mlir")
    fast = " fast-math=true" if args.fast_math else ""
    rc, _, err = run([args.opt, f"--lower-to-kernel=target={args.arch}{fast}",
                      str(src), "-o", str(kir)])
    if rc:
        msg = "lower-to-kernel failed: " + first_line(err)
        return {"ptx": msg, "cuda": msg}
    # The cost model's view of the row kernel (the one moving the most
    # bytes): instructions per element and issue time over memory time.
    report = stem.with_suffix(".report.json")
    rc, _, _ = run([args.opt, f"--lower-to-tile=target={args.arch}{fast} "
                    f"schedule-report={report}", str(src), "-o", os.devnull])
    model = None
    if rc == 0:
        kernels = json.loads(report.read_text())["kernels"]
        k = max(kernels, key=lambda k: k["facts"].get("bytes", 0))
        if k["facts"]["kind"] == "row" and k["memory_micros"]:
            model = (k["facts"]["instructions_per_element"],
                     k["issue_micros"] / k["memory_micros"])
    text = kir.read_text()
    ir_loops, launches = kernel_ir(text)
    if not launches:
        return {"ptx": "no launches", "cuda": "no launches"}
    out = {"model": model}
    # The PTX path (ptxas) and the CUDA C path (nvcc).
    paths = [("ptx", "--mlir-to-ptx", [f"--ptx-chip={args.arch}"], ".ptx",
              tools["ptxas"], "ptxas", [f"-arch={args.arch}"]),
             ("cuda", "--mlir-to-cuda", [], ".cu", tools["nvcc"], "nvcc",
              ["-cubin", f"-arch={args.arch}"])]
    for key, flag, extra, suffix, compiler, cname, cflags in paths:
        if not compiler:
            out[key] = f"skipped: no {cname}"
            continue
        code = stem.with_suffix(suffix)
        cubin = stem.with_suffix(suffix + ".cubin")
        rc, _, err = run([args.translate, flag, *extra, str(kir), "-o", str(code)])
        if rc == 0:
            rc, _, err = run([compiler, *cflags, str(code), "-o", str(cubin)])
            err = (cname + ": " if rc else "") + err
        else:
            err = flag + ": " + err
        if rc:
            out[key] = "failed, " + first_line(err)
        else:
            sass, regs, err = sass_of(cubin, tools["cuobjdump"])
            out[key] = err or per_element(sass, regs, ir_loops, launches, M * n)
    return out


# ---------------------------------------------------------------- Triton
if triton is not None:
    @triton.jit
    def tt_rmsnorm(x_ptr, w_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr,
                   EPS: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.math.rsqrt(tl.sum(x * x, axis=0) / N + EPS)
        y = x * rstd * w
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_add_rmsnorm(x_ptr, r_ptr, w_ptr, y_ptr, N: tl.constexpr,
                       BLOCK: tl.constexpr, EPS: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(r_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        h = x + r
        rstd = tl.math.rsqrt(tl.sum(h * h, axis=0) / N + EPS)
        y = h * rstd * w
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_layernorm(x_ptr, w_ptr, b_ptr, y_ptr, N: tl.constexpr,
                     BLOCK: tl.constexpr, EPS: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=0) / N
        xc = tl.where(mask, x - mean, 0.0)
        rstd = tl.math.rsqrt(tl.sum(xc * xc, axis=0) / N + EPS)
        y = xc * rstd * w + b
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_softmax(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask,
                    other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        y = e / tl.sum(e, axis=0)
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_log_softmax(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask,
                    other=-float("inf")).to(tl.float32)
        z = x - tl.max(x, axis=0)
        y = z - tl.log(tl.sum(tl.exp(z), axis=0))
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_swiglu(a_ptr, b_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        a = tl.load(a_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        y = a * tl.sigmoid(a) * b
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_gelu_erf(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def tt_gelu_tanh(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = 0.5 * x * (1.0 + libdevice.tanh(inner))
        tl.store(y_ptr + row * N + cols, y.to(y_ptr.dtype.element_ty), mask=mask)

    TRITON_KERNELS = {  # op: (kernel, pointer arguments, eps)
        "rmsnorm": (tt_rmsnorm, ["x_ptr", "w_ptr", "y_ptr"], 1e-6),
        "add_rmsnorm": (tt_add_rmsnorm, ["x_ptr", "r_ptr", "w_ptr", "y_ptr"], 1e-6),
        "layernorm": (tt_layernorm, ["x_ptr", "w_ptr", "b_ptr", "y_ptr"], 1e-5),
        "softmax": (tt_softmax, ["x_ptr", "y_ptr"], None),
        "log_softmax": (tt_log_softmax, ["x_ptr", "y_ptr"], None),
        "swiglu": (tt_swiglu, ["a_ptr", "b_ptr", "y_ptr"], None),
        "gelu_erf": (tt_gelu_erf, ["x_ptr", "y_ptr"], None),
        "gelu_tanh": (tt_gelu_tanh, ["x_ptr", "y_ptr"], None),
    }


def triton_case(op, n, dtype, args, tools, tmp):
    """per_element result of the Triton kernel, or an error string."""
    from triton.backends.compiler import GPUTarget
    fn, ptrs, eps = TRITON_KERNELS[op]
    block = 1 << (n - 1).bit_length()
    num_warps = min(max(block // 256, 1), 8)
    ty = {"f32": "*fp32", "bf16": "*bf16"}[dtype]
    signature = {p: ty for p in ptrs} | {"N": "constexpr", "BLOCK": "constexpr"}
    constexprs = {"N": n, "BLOCK": block}
    if eps is not None:
        signature["EPS"] = "constexpr"
        constexprs["EPS"] = eps
    attrs = {(k,): [["tt.divisibility", 16]] for k in range(len(ptrs))}
    arch = int(args.arch.removeprefix("sm_").rstrip("a"))
    try:
        k = triton.compile(
            triton.compiler.ASTSource(fn=fn, signature=signature,
                                      constexprs=constexprs, attrs=attrs),
            target=GPUTarget("cuda", arch, 32), options={"num_warps": num_warps})
    except Exception as e:  # noqa: BLE001 - reported, not fatal
        return f"triton.compile failed: {first_line(str(e))}"
    cubin = pathlib.Path(tmp, f"triton_{op}_{dtype}_{n}.cubin")
    cubin.write_bytes(k.asm["cubin"])
    sass, regs, err = sass_of(cubin, tools["cuobjdump"])
    if err:
        return err
    name = k.metadata.name
    threads = k.metadata.num_warps * 32 * M
    return per_element(sass, regs, {}, [(name, threads)], M * n)


# ---------------------------------------------------------------- main
def cell(r):
    if isinstance(r, dict):
        return f"{r['per_elem']:.2f}" + ("" if r["exact"] else "?")
    return "-"


def regs_cell(r):
    return str(r["regs"]) if isinstance(r, dict) and r["regs"] else "-"


def ratio(a, b):
    if isinstance(a, dict) and isinstance(b, dict) and b["per_elem"]:
        return f"{a['per_elem'] / b['per_elem']:.2f}"
    return "-"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="width 4096 only")
    p.add_argument("--only", default="", help="comma-separated ops: " + ",".join(OPS))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    p.add_argument("--translate", default=str(ROOT / "build/bin/xtile-translate"))
    p.add_argument("--ptxas", default=None, help="ptxas for xtile's PTX "
                   "(default: PATH, /usr/local/cuda/bin, then Triton's copy)")
    p.add_argument("--fast-math", action="store_true",
                   help="xtile's kernels with fast-math=true (the bare "
                        "approximate instructions, as Triton uses)")
    p.add_argument("--detail", action="store_true",
                   help="also print every kernel's counts")
    p.add_argument("--keep", default=None, metavar="DIR",
                   help="keep the intermediate files (Tensor IR, Kernel IR, "
                   "PTX, CUDA C, cubins) in DIR")
    args = p.parse_args()
    ops = [o for o in OPS if not args.only or o in args.only.split(",")]
    widths = [4096] if args.quick else WIDTHS
    tools = {"ptxas": args.ptxas or tool("ptxas", ("ptxas-blackwell", "ptxas")),
             "nvcc": tool("nvcc"),
             "cuobjdump": tool("cuobjdump", ("cuobjdump",))}
    for name in (args.opt, args.translate):
        if not os.path.exists(name):
            print(f"# skipped: {name} is missing (build xtile with scripts/setup.sh)")
            return
    if not tools["cuobjdump"]:
        print("# skipped: no cuobjdump (PATH, /usr/local/cuda/bin or Triton's "
              "backends/nvidia/bin): SASS cannot be counted")
        return
    print(f"# SASS instructions per output element, {M} rows, {args.arch}; "
          "static code minus NOP and the final self-branch, loops weighted by "
          "their trip counts, slow-path CALLs not taken (see the docstring)")
    print(f"# xtile: {args.opt}, {args.translate}")
    print(f"# cuobjdump: {tools['cuobjdump']}")
    print(f"# PTX path: xtile-translate --mlir-to-ptx, "
          + (f"ptxas {version(tools['ptxas'])} ({tools['ptxas']})"
             if tools["ptxas"] else "skipped: no ptxas found"))
    print(f"# CUDA C path: xtile-translate --mlir-to-cuda, "
          + (f"nvcc {version(tools['nvcc'])} -cubin" if tools["nvcc"]
             else "skipped: no nvcc found"))
    if triton is None:
        print(f"# Triton: skipped, it does not import ({TRITON_ERROR})")
    else:
        from triton.backends.nvidia.compiler import get_ptxas
        try:
            tp = get_ptxas(int(args.arch.removeprefix("sm_").rstrip("a"))).path
            tv = f"its ptxas {version(tp)}"
        except Exception:  # noqa: BLE001
            tv = "its bundled ptxas"
        print(f"# Triton {triton.__version__}: triton.compile for "
              f"GPUTarget('cuda', {args.arch[3:]}, 32), {tv}, "
              "one program per row, num_warps = min(max(BLOCK // 256, 1), 8)")
    print("# model: the cost model's instructions per element of the row "
          "kernel; iss/mem: its estimated issue time over its memory time "
          "(target: <= 60%)")
    print("# '?' marks a kernel whose loop trip count could not be derived "
          "(its loops counted once); regs: the row kernel's registers")
    head = (f"{'op':<12}{'dtype':<6}{'width':>6}{'PTX':>9}{'regs':>5}"
            f"{'CUDA C':>9}{'regs':>5}{'Triton':>9}{'regs':>5}"
            f"{'PTX/Tri':>9}{'C/Tri':>7}{'model':>7}{'iss/mem':>8}"
            f"  loops (body x trips)")
    print(head)
    problems, detail = [], []
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            tmp = args.keep
            os.makedirs(tmp, exist_ok=True)
        for op in ops:
            for dtype in DTYPES:
                for n in widths:
                    xt = xtile_case(op, n, dtype, args, tools, tmp)
                    if triton is None:
                        tr = "skipped"
                    else:
                        tr = triton_case(op, n, dtype, args, tools, tmp)
                    row = {"ptx": xt["ptx"], "cuda": xt["cuda"], "triton": tr}
                    for path, r in row.items():
                        if isinstance(r, str) and not r.startswith("skipped"):
                            problems.append(f"{op} {dtype} {n} {path}: {r}")
                        if isinstance(r, dict):
                            for k in r["kernels"]:
                                detail.append((op, dtype, n, path) + k)
                    loops = "; ".join(f"{path} {r['loops']}"
                                      for path, r in row.items()
                                      if isinstance(r, dict) and r["loops"])
                    model = xt.get("model")
                    modeled = (f"{model[0]:>7.0f}{model[1]:>8.0%}" if model
                               else f"{'-':>7}{'-':>8}")
                    print(f"{op:<12}{dtype:<6}{n:>6}{cell(row['ptx']):>9}"
                          f"{regs_cell(row['ptx']):>5}{cell(row['cuda']):>9}"
                          f"{regs_cell(row['cuda']):>5}{cell(row['triton']):>9}"
                          f"{regs_cell(row['triton']):>5}"
                          f"{ratio(row['ptx'], row['triton']):>9}"
                          f"{ratio(row['cuda'], row['triton']):>7}{modeled}"
                          f"  {loops}",
                          flush=True)
    if args.detail:
        print("\n# per kernel: threads launched, static SASS, dynamic SASS "
              "per thread, row elements per thread (row kernels), loops "
              "(static body x trips), registers")
        print(f"{'case':<22}{'path':<7}{'kernel':<34}{'threads':>10}"
              f"{'static':>7}{'dyn/thr':>8}{'elem/thr':>9}{'regs':>5}  loops")
        for op, dtype, n, path, name, threads, static, dyn, loops, regs in detail:
            per = f"{M * n / threads:.4g}" if threads >= M else "-"
            print(f"{op + ' ' + dtype + ' ' + str(n):<22}{path:<7}{name:<34}"
                  f"{threads:>10}{static:>7}{dyn:>8}{per:>9}"
                  f"{regs if regs else '-':>5}  {loops}")
    for line in problems:
        print(f"# {line}")


if __name__ == "__main__":
    main()
