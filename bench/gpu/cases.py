"""The GPU cases, as Tensor IR and what the GPU side needs to build the same
computation in PyTorch. Standard library only: prepare.py runs it where
xtile is built, run.py and first_contact.py where the GPU is.

Two sets:

- SELF-TEST (selftest_cases): the repository's own inputs (examples/,
  test/Integration/Inputs, test/Target/Inputs) with the targets and forced
  schedules the integration tests use to exercise each kernel family: row
  kernels, split reductions, mma.sync, wgmma (plain, TMA,
  warp-specialized), flash attention (prefill, decode, split), dynamic
  sizes, fast math. Each function is checked against eager PyTorch
  (reference.py) through both loaders.

- BENCHMARK (bench_cases): memory-bound row ops at M = 32768 rows x N in
  {1024, 4096, 8192, 32768}, f32 and bf16; a 4096^3 bf16 matmul and the
  Llama-3-8B projections (bf16, M = 16, 128 and 4096); Llama-3-8B
  attention (prefill, causal, GQA 32/8, and a decode step over a KV cache);
  a Llama-3-8B decoder layer (prefill) and its decode step. `tiny=True`
  gives the same kinds at sizes the CPU emulation runs in seconds (the dry
  run's).
"""

M = 32768
NS = [1024, 4096, 8192, 32768]
DTYPES = ["f32", "bf16"]
BYTES = {"f32": 4, "bf16": 2}

# The rows of the self-test's table, in order.
FEATURES = ["row kernels", "split reductions", "mma.sync", "wgmma",
            "wgmma + TMA", "wgmma warp-specialized", "attention prefill",
            "attention decode", "attention split", "dynamic sizes", "fast math"]


def t(shape, dtype, dims=None):
    text = "x".join(["?" if d is None else str(d) for d in shape] + [dtype])
    if dims:
        text += f", #xtensor.dims<{', '.join(dims)}>"
    return f"tensor<{text}>"


# ---------------------------------------------------------------------------
# The self-test

def _dot(bm, bn, bk, stages, warps, instruction=None, warps_m=None, ws=False,
         ways=None):
    s = (f"#xtile.dot_schedule<block_m = {bm}, block_n = {bn}, block_k = {bk}, "
         f"stages = {stages}, warps = {warps}")
    if instruction:
        s += f", instruction = {instruction}, warps_m = {warps_m}"
    if ws:
        s += ", warp_specialized = true"
    if ways:
        s += f", ways = {ways}"
    return s + ">"


def selftest(name, source, feature, target="sm_90", schedule=None,
             fast_math=False, tf32=False, runs=None, features=None, quick=False,
             expect=(), entries=None):
    """A self-test case: one module (`source`, relative to the repository)
    lowered for `target` with `schedule` forced on its kernels. `feature`
    is the table row of its functions ("rows" and "attention" are resolved
    per function; features={fn: row} overrides); the code adds what it
    shows (wgmma, TMA, warp specialization, mma.sync, split kernels,
    dynamic sizes: prepare.py derives them from the PTX and the launch
    plan). `runs`: the values of the dynamic sizes to run at. `expect`:
    PTX instructions the module must contain (prepare.py checks, so that a
    row of the table means what it says). `entries`: the functions of the
    source to keep (a forced schedule that fits only them)."""
    return {"name": name, "source": source, "entries": entries or [],
            "feature": feature, "target": target,
            "schedule": schedule, "fast_math": fast_math, "tf32": tf32,
            "runs": runs or [{}], "features": features or {}, "quick": quick,
            "expect": list(expect)}


ATTENTION_DECODE = {"decode", "decode_cache", "decode_gqa3", "decode_bf16", "mqa_32k"}
ATT = "test/Integration/Inputs/attention.mlir"
MMA = "test/Integration/Inputs/mma-matmuls.mlir"


def selftest_cases():
    wgmma64 = _dot(64, 64, 64, 3, 4, "wgmma", 4)
    return [
        # Row kernels: the examples at their sizes; ragged, odd, size-1,
        # chunked, split, 16-bit and integer rows; multi-dimensional
        # reductions and empty tensors.
        selftest("rmsnorm", "examples/rmsnorm.mlir", "rows"),
        selftest("softmax", "examples/softmax.mlir", "rows"),
        selftest("layernorm", "examples/layernorm.mlir", "rows"),
        selftest("edge-shapes", "test/Target/Inputs/edge-shapes.mlir", "rows"),
        selftest("reductions", "test/Integration/Inputs/reductions-and-empties.mlir",
                 "rows"),
        # mma.sync (tensor-core-matmuls.test, tf32-matmuls.test).
        selftest("mma", MMA, "mma.sync",
                 schedule=_dot(64, 64, 32, 3, 4, "mma_sync", 2), expect=["mma.sync"]),
        selftest("mma-tf32", "test/Integration/Inputs/tf32-matmuls.mlir", "mma.sync",
                 schedule=_dot(128, 64, 64, 2, 8, "mma_sync", 4)[:-1] + ", tf32 = true>",
                 tf32=True, expect=["mma.sync"]),
        # wgmma on sm_90a: operand tiles by TMA where they are boxes of
        # their buffers, by cp.async elsewhere (K = 97 and 260, batched,
        # transposed A); one and two 64-row blocks per warpgroup;
        # warp-specialized.
        selftest("wgmma-64", MMA, "wgmma", "sm_90a", wgmma64,
                 expect=["wgmma.mma_async", "cp.async.bulk.tensor"]),
        selftest("wgmma-128", MMA, "wgmma", "sm_90a", _dot(128, 128, 64, 2, 8, "wgmma", 8),
                 expect=["wgmma.mma_async"]),
        selftest("wgmma-ws-64", MMA, "wgmma", "sm_90a",
                 _dot(64, 64, 64, 3, 4, "wgmma", 4, ws=True), quick=True,
                 expect=["wgmma.mma_async", "setmaxnreg"]),
        selftest("wgmma-ws-128", MMA, "wgmma", "sm_90a",
                 _dot(128, 128, 64, 3, 8, "wgmma", 8, ws=True),
                 expect=["wgmma.mma_async", "setmaxnreg"]),
        selftest("wgmma-auto", MMA, "wgmma", "sm_90a", expect=["wgmma.mma_async"]),
        # Flash attention: the cost model's schedules (prefill, decode,
        # flash-decoding splits, mma.sync for 16-bit), then forced splits.
        selftest("attention", ATT, "attention",
                 features={"log_softmax": "row kernels", "cross_entropy": "row kernels"}),
        selftest("attention-causal-ways3", ATT, "attention",
                 schedule=_dot(16, 64, 32, 1, 4, ways=3), entries=["causal"]),
        selftest("attention-mma-causal", ATT, "attention",
                 schedule=_dot(64, 64, 64, 2, 4, "mma_sync", 4), entries=["causal_bf16"],
                 expect=["mma.sync"]),
        selftest("attention-mma-decode-ways3", ATT, "attention",
                 schedule=_dot(16, 128, 64, 2, 4, "mma_sync", 1, ways=3),
                 entries=["decode_bf16"], expect=["mma.sync"]),
        # Dynamic sizes: compiled once, run at several sizes.
        selftest("dynamic-rows", "test/Integration/Inputs/dynamic-rows.mlir", "dynamic sizes",
                 runs=[{"T": 1}, {"T": 7}, {"T": 130}], quick=True),
        selftest("dynamic-columns", "test/Integration/Inputs/dynamic-columns.mlir",
                 "dynamic sizes",
                 # T = 1000: the decode step's keys split over ways (its
                 # partials' kernel, then the combine).
                 runs=[{"T": 1, "Q": 3}, {"T": 129, "Q": 40}, {"T": 1000, "Q": 7}]),
        selftest("tma-tokens", "test/Integration/Inputs/tma-tokens.mlir", "dynamic sizes",
                 "sm_90a", _dot(128, 128, 64, 3, 8, "wgmma", 8),
                 runs=[{"T": 1}, {"T": 37}, {"T": 130}], quick=True,
                 expect=["cp.async.bulk.tensor"]),
        # Fast math: value-changing rewrites and the bare approximate
        # instructions (ex2.approx.ftz, rcp.approx, ...).
        selftest("fast-edge-shapes", "test/Target/Inputs/edge-shapes.mlir", "fast math",
                 fast_math=True, expect=["ex2.approx"]),
        selftest("fast-dynamic-rows", "test/Integration/Inputs/dynamic-rows.mlir",
                 "fast math", fast_math=True, runs=[{"T": 7}, {"T": 130}]),
        selftest("fast-attention", ATT, "fast math", fast_math=True),
    ]


def lower_options(case):
    """--lower-to-kernel's options for a case (self-test or benchmark)."""
    options = [f"target={case['target']}"]
    if case.get("fast_math"):
        options.append("fast-math=true")
    if case.get("tf32"):
        options.append("allow-tf32=true")
    if case.get("schedule"):
        options.append(f"force-schedule='{case['schedule']}'")
    return " ".join(options)


# ---------------------------------------------------------------------------
# The benchmark

# Nominal FLOPs per element of the row ops (their definitions' elementwise
# operations, one each), for placing them on the roofline.
ROW_FLOPS = {"rmsnorm": 4, "layernorm": 7, "softmax": 5, "swiglu": 5,
             "add_rmsnorm": 5}


def _case(name, op, dtype, inputs, outputs, bytes_, flops, mlir, baseline,
          target="sm_90a", **extra):
    return {"name": name, "op": op, "dtype": dtype, "inputs": inputs,
            "outputs": outputs, "bytes": bytes_, "flops": flops, "mlir": mlir,
            "baseline": baseline, "target": target, **extra}


def row_case(op, n, dtype, m=M):
    x, v = t([m, n], dtype), t([n], dtype)
    b = BYTES[dtype]
    if op == "rmsnorm":
        body = f"%y = xtensor.rms_norm %x weight %w eps 1.0e-6 : ({x}, {v}) -> {x}"
        args, inputs = f"%x: {x}, %w: {v}", [[m, n], [n]]
        traffic = 2 * m * n * b + n * b
    elif op == "layernorm":
        body = (f"%y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5 : "
                f"({x}, {v}, {v}) -> {x}")
        args, inputs = f"%x: {x}, %w: {v}, %b: {v}", [[m, n], [n], [n]]
        traffic = 2 * m * n * b + 2 * n * b
    elif op == "softmax":
        body = f"%y = xtensor.softmax %x dim 1 : {x}"
        args, inputs = f"%x: {x}", [[m, n]]
        traffic = 2 * m * n * b
    elif op == "swiglu":
        body = (f"%s = xtensor.silu %x : {x}\n  "
                f"%y = xtensor.mul %s, %g : {x}")
        args, inputs = f"%x: {x}, %g: {x}", [[m, n], [m, n]]
        traffic = 3 * m * n * b
    elif op == "add_rmsnorm":
        body = (f"%h = xtensor.add %x, %r : {x}\n  "
                f"%y = xtensor.rms_norm %h weight %w eps 1.0e-6 : ({x}, {v}) -> {x}")
        args, inputs = f"%x: {x}, %r: {x}, %w: {v}", [[m, n], [m, n], [n]]
        traffic = 3 * m * n * b + n * b
    name = f"{op}_{dtype}_{n}" + ("" if m == M else f"_m{m}")
    init = ["randn"] * len(inputs)
    mlir = (f"func.func @{name}({args}) -> {x} {{\n  {body}\n"
            f"  return %y : {x}\n}}\n")
    return _case(name, op, dtype, inputs, [[m, n]], traffic, ROW_FLOPS[op] * m * n,
                 mlir, "torch.compile", target="sm_90", shape=[m, n], init=init)


def matmul_case(n=4096):
    a = t([n, n], "bf16")
    name = f"matmul_bf16_{n}"
    mlir = (f"func.func @{name}(%a: {a}, %b: {a}) -> {a} {{\n"
            f"  %c = xtensor.matmul %a, %b : {a}, {a} -> {a}\n"
            f"  return %c : {a}\n}}\n")
    return _case(name, "matmul", "bf16", [[n, n], [n, n]], [[n, n]], 3 * n * n * 2,
                 2 * n ** 3, mlir, "cuBLAS", shape=[n, n], init=["scaled", "scaled"])


# Llama-3-8B's projections as nn.Linear computes them (x W^T, W [out, in]):
# QKV, O, gate+up, down; at decode batches (M = 16), small batches
# (M = 128) and prefill (M = 4096).
LLAMA = [("qkv", 6144, 4096), ("o", 4096, 4096), ("gate_up", 28672, 4096),
         ("down", 4096, 14336)]


def linear_case(proj, m, n, k, tag=""):
    x, w, y = t([m, k], "bf16"), t([n, k], "bf16"), t([m, n], "bf16")
    name = f"linear_{proj}_bf16_m{m}{tag}"
    mlir = (f"func.func @{name}(%x: {x}, %w: {w}) -> {y} {{\n"
            f"  %y = xtensor.linear %x, %w : ({x}, {w}) -> {y}\n"
            f"  return %y : {y}\n}}\n")
    # Inputs are scaled by 1/sqrt(K) ("scaled": K is the last dimension).
    return _case(name, "linear", "bf16", [[m, k], [n, k]], [[m, n]],
                 (m * k + n * k + m * n) * 2, 2 * m * n * k, mlir, "cuBLAS",
                 shape=[m, n, k], init=["scaled", "scaled"])


def _attention_body(heads, kv_heads, tq, tk, d, dtype, causal, k="%k", v="%v"):
    """softmax(q k^T / sqrt(d) [causal]) v with GQA (K/V heads broadcast
    to the query heads, as HF's repeat_kv), q [H, Tq, D], k/v [KVH, Tk, D]:
    Tensor IR lines, the result %o [H, Tq, D]."""
    g = heads // kv_heads
    q, kv = t([heads, tq, d], dtype), t([kv_heads, tk, d], dtype)
    kv4, kvb = t([kv_heads, 1, tk, d], dtype), t([kv_heads, g, tk, d], dtype)
    kvr, kt = t([heads, tk, d], dtype), t([heads, d, tk], dtype)
    s = t([heads, tq, tk], dtype)
    lines = []
    for n, src in (("k", k), ("v", v)):
        lines += [f"%{n}4 = xtensor.reshape {src} : {kv} -> {kv4}",
                  f"%{n}b = xtensor.broadcast %{n}4 : {kv4} -> {kvb}",
                  f"%{n}r = xtensor.reshape %{n}b : {kvb} -> {kvr}"]
    lines += [f"%kt = xtensor.transpose %kr perm [0, 2, 1] : {kvr} -> {kt}",
              f"%s = xtensor.matmul %q, %kt : {q}, {kt} -> {s}",
              f"%c = xtensor.constant dense<{d ** -0.5:.9g}> : {s}",
              f"%ss = xtensor.mul %s, %c : {s}"]
    scores = "%ss"
    if causal:
        i = t([heads, tq, tk], "i32")
        lines += [f"%i = xtensor.iota dim 1 : {i}",
                  f"%j = xtensor.iota dim 2 : {i}"]
        if tk != tq:   # the queries are the last tq of tk positions
            lines += [f"%off = xtensor.constant dense<{tk - tq}> : {i}",
                      f"%ip = xtensor.add %i, %off : {i}"]
        lines += [f"%seen = xtensor.cmp le, %j, {'%ip' if tk != tq else '%i'} : {i}",
                  f"%ninf = xtensor.constant dense<{'0xFF80' if dtype == 'bf16' else '0xFF800000'}> : {s}",
                  f"%masked = xtensor.select %seen, %ss, %ninf : {s}"]
        scores = "%masked"
    lines += [f"%p = xtensor.softmax {scores} dim 2 : {s}",
              f"%o = xtensor.matmul %p, %vr : {s}, {kvr} -> {q}"]
    return lines


def attention_case(tq, tk, heads=32, kv_heads=8, d=128, dtype="bf16", causal=True,
                   tag=""):
    q, kv = t([heads, tq, d], dtype), t([kv_heads, tk, d], dtype)
    name = f"attention_{'prefill' if tq > 1 else 'decode'}_{dtype}_q{tq}_k{tk}{tag}"
    body = _attention_body(heads, kv_heads, tq, tk, d, dtype, causal)
    mlir = (f"func.func @{name}(%q: {q}, %k: {kv}, %v: {kv}) -> {q} {{\n  " +
            "\n  ".join(body) + f"\n  return %o : {q}\n}}\n")
    b = BYTES[dtype]
    pairs = tq * tk - (tq * (tq - 1) // 2 if causal else 0)
    return _case(name, "attention", dtype, [[heads, tq, d], [kv_heads, tk, d],
                                            [kv_heads, tk, d]], [[heads, tq, d]],
                 (2 * heads * tq * d + 2 * kv_heads * tk * d) * b,
                 4 * heads * pairs * d, mlir, "SDPA flash", shape=[heads, tq, tk, d],
                 causal=causal, heads=heads, kv_heads=kv_heads,
                 init=["randn"] * 3)


# Llama-3-8B: width 4096, 32 heads of 128, 8 K/V heads, MLP 14336, RMSNorm
# eps 1e-5, rotary embeddings (cos/sin tables as inputs).
LLAMA3_8B = dict(d=4096, heads=32, kv_heads=8, head_dim=128, hidden=14336)
TINY_LLAMA = dict(d=256, heads=4, kv_heads=2, head_dim=64, hidden=512)


def decoder_case(tokens, cache=0, d=4096, heads=32, kv_heads=8, head_dim=128,
                 hidden=14336, dtype="bf16", tag=""):
    """A Llama decoder layer in bf16 (what models.llama_layer computes):
        h = x + o(attention(rope(q(n1(x))), rope(k(n1(x))), v(n1(x))))
        y = h + down(silu(gate(n2(h))) * up(n2(h)))
    Prefill (cache = 0): `tokens` tokens, causal. Decode step (cache = L):
    one token against a KV cache of L positions (keys already rotated),
    which it attends to whole; it returns y and its own keys and values
    (rotated keys), which the caller writes into the cache."""
    T = tokens
    hd, kvd = heads * head_dim, kv_heads * head_dim
    x, vec = t([T, d], dtype), t([d], dtype)
    rope = t([T, head_dim], dtype)
    half = head_dim // 2
    decode = cache > 0
    name = (f"decode_step_{dtype}_k{cache}" if decode else f"decoder_layer_{dtype}_t{T}") + tag
    args = [f"%x: {x}", f"%cos: {rope}", f"%sin: {rope}", f"%n1: {vec}",
            f"%wq: {t([hd, d], dtype)}", f"%wk: {t([kvd, d], dtype)}",
            f"%wv: {t([kvd, d], dtype)}", f"%wo: {t([d, hd], dtype)}",
            f"%n2: {vec}", f"%wg: {t([hidden, d], dtype)}",
            f"%wu: {t([hidden, d], dtype)}", f"%wd: {t([d, hidden], dtype)}"]
    if decode:
        args += [f"%kcache: {t([kv_heads, cache, head_dim], dtype)}",
                 f"%vcache: {t([kv_heads, cache, head_dim], dtype)}"]
    L = [f"%h1 = xtensor.rms_norm %x weight %n1 eps 1.0e-5 : ({x}, {vec}) -> {x}",
         f"%q2 = xtensor.linear %h1, %wq : ({x}, {t([hd, d], dtype)}) -> {t([T, hd], dtype)}",
         f"%k2 = xtensor.linear %h1, %wk : ({x}, {t([kvd, d], dtype)}) -> {t([T, kvd], dtype)}",
         f"%v2 = xtensor.linear %h1, %wv : ({x}, {t([kvd, d], dtype)}) -> {t([T, kvd], dtype)}"]
    # Rotary embeddings, HF's rotate_half: x * cos + cat(-x2, x1) * sin.
    r3 = t([T, 1, head_dim], dtype)
    L += [f"%cos3 = xtensor.reshape %cos : {rope} -> {r3}",
          f"%sin3 = xtensor.reshape %sin : {rope} -> {r3}"]
    for n, h, flat in (("q", heads, hd), ("k", kv_heads, kvd)):
        full, part = t([T, h, head_dim], dtype), t([T, h, half], dtype)
        L += [f"%{n}3 = xtensor.reshape %{n}2 : {t([T, flat], dtype)} -> {full}",
              f"%{n}lo = xtensor.slice %{n}3 starts [0, 0, 0] limits [{T}, {h}, {half}] "
              f"strides [1, 1, 1] : {full} -> {part}",
              f"%{n}hi = xtensor.slice %{n}3 starts [0, 0, {half}] limits [{T}, {h}, "
              f"{head_dim}] strides [1, 1, 1] : {full} -> {part}",
              f"%{n}nh = xtensor.neg %{n}hi : {part}",
              f"%{n}rot = xtensor.concat %{n}nh, %{n}lo dim 2 : {part}, {part} -> {full}",
              f"%{n}cb = xtensor.broadcast %cos3 : {r3} -> {full}",
              f"%{n}sb = xtensor.broadcast %sin3 : {r3} -> {full}",
              f"%{n}xc = xtensor.mul %{n}3, %{n}cb : {full}",
              f"%{n}xs = xtensor.mul %{n}rot, %{n}sb : {full}",
              f"%{n}pe = xtensor.add %{n}xc, %{n}xs : {full}"]
    qh = t([heads, T, head_dim], dtype)
    kvh = t([kv_heads, T, head_dim], dtype)
    v3 = t([T, kv_heads, head_dim], dtype)
    L += [f"%q = xtensor.transpose %qpe perm [1, 0, 2] : {t([T, heads, head_dim], dtype)} -> {qh}"]
    if not decode:
        L += [f"%k = xtensor.transpose %kpe perm [1, 0, 2] : {t([T, kv_heads, head_dim], dtype)} -> {kvh}",
              f"%v3 = xtensor.reshape %v2 : {t([T, kvd], dtype)} -> {v3}",
              f"%v = xtensor.transpose %v3 perm [1, 0, 2] : {v3} -> {kvh}"]
    # A decode step attends to the cache: the keys and values it holds.
    L += _attention_body(heads, kv_heads, T, cache or T, head_dim, dtype,
                         causal=not decode, k="%kcache" if decode else "%k",
                         v="%vcache" if decode else "%v")
    L += [f"%ot = xtensor.transpose %o perm [1, 0, 2] : {qh} -> {t([T, heads, head_dim], dtype)}",
          f"%o2 = xtensor.reshape %ot : {t([T, heads, head_dim], dtype)} -> {t([T, hd], dtype)}",
          f"%a = xtensor.linear %o2, %wo : ({t([T, hd], dtype)}, {t([d, hd], dtype)}) -> {x}",
          f"%h = xtensor.add %x, %a : {x}",
          f"%h2 = xtensor.rms_norm %h weight %n2 eps 1.0e-5 : ({x}, {vec}) -> {x}",
          f"%g = xtensor.linear %h2, %wg : ({x}, {t([hidden, d], dtype)}) -> {t([T, hidden], dtype)}",
          f"%u = xtensor.linear %h2, %wu : ({x}, {t([hidden, d], dtype)}) -> {t([T, hidden], dtype)}",
          f"%sg = xtensor.silu %g : {t([T, hidden], dtype)}",
          f"%m = xtensor.mul %sg, %u : {t([T, hidden], dtype)}",
          f"%dn = xtensor.linear %m, %wd : ({t([T, hidden], dtype)}, {t([d, hidden], dtype)}) -> {x}",
          f"%y = xtensor.add %h, %dn : {x}"]
    results = [x]
    returns = ["%y"]
    if decode:
        kflat = t([T, kvd], dtype)
        L += [f"%kout = xtensor.reshape %kpe : {t([T, kv_heads, head_dim], dtype)} -> {kflat}"]
        results += [kflat, kflat]
        returns += ["%kout", "%v2"]
    mlir = (f"func.func @{name}({', '.join(args)}) -> ({', '.join(results)}) {{\n  " +
            "\n  ".join(L) + f"\n  return {', '.join(returns)} : {', '.join(results)}\n}}\n")
    b = BYTES[dtype]
    weights = (2 * d + hd * d + 2 * kvd * d + d * hd + 3 * hidden * d) * b
    inputs = [[T, d], [T, head_dim], [T, head_dim], [d], [hd, d], [kvd, d], [kvd, d],
              [d, hd], [d], [hidden, d], [hidden, d], [d, hidden]]
    outputs = [[T, d]]
    keys = cache or T
    pairs = keys if decode else T * (T + 1) // 2
    flops = 2 * T * (hd * d + 2 * kvd * d + d * hd + 3 * hidden * d) + 4 * heads * pairs * head_dim
    traffic = weights + 2 * T * d * b + 2 * T * head_dim * b
    init = ["randn", "cos", "sin", "norm", "w", "w", "w", "w", "norm", "w", "w", "w"]
    if decode:
        init += ["randn", "randn"]
        inputs += [[kv_heads, cache, head_dim]] * 2
        outputs += [[T, kvd], [T, kvd]]
        traffic += 2 * kv_heads * cache * head_dim * b + 2 * T * kvd * b
    return _case(name, "decode_step" if decode else "decoder_layer", dtype, inputs,
                 outputs, traffic, flops, mlir, "torch.compile", shape=[T, d], init=init,
                 model=dict(d=d, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
                            hidden=hidden, cache=cache))


def bench_cases(tiny=False):
    """The benchmark grid; tiny=True: the same kinds at emulation sizes."""
    out = []
    if tiny:
        for op in ["rmsnorm", "layernorm", "softmax", "swiglu", "add_rmsnorm"]:
            out.append(row_case(op, 1024, "f32" if op != "swiglu" else "bf16", m=64))
        out.append(matmul_case(128))
        out.append(linear_case("qkv", 16, 192, 128, tag="_tiny"))
        out.append(attention_case(64, 64, 4, 2, 64, tag="_tiny"))
        out.append(attention_case(1, 512, 4, 2, 64, causal=False, tag="_tiny"))
        out.append(decoder_case(32, tag="_tiny", **_tiny()))
        out.append(decoder_case(1, cache=256, tag="_tiny", **_tiny()))
        return out
    for op in ["rmsnorm", "layernorm", "softmax", "swiglu", "add_rmsnorm"]:
        for dtype in DTYPES:
            for n in NS:
                out.append(row_case(op, n, dtype))
    out.append(matmul_case())
    for proj, n, k in LLAMA:
        for m in (16, 128, 4096):
            out.append(linear_case(proj, m, n, k))
    out.append(attention_case(4096, 4096))
    out.append(attention_case(1024, 1024))
    out.append(attention_case(1, 8192, causal=False))
    out.append(decoder_case(2048, **_llama()))
    out.append(decoder_case(1, cache=8192, **_llama()))
    return out


def _llama():
    return {k: LLAMA3_8B[k] for k in ("d", "heads", "kv_heads", "head_dim", "hidden")}


def _tiny():
    return {k: TINY_LLAMA[k] for k in ("d", "heads", "kv_heads", "head_dim", "hidden")}


def all_cases():
    """The full benchmark grid (kept for callers of the former API)."""
    return bench_cases()
