"""The GPU benchmark cases: memory-bound row ops at M = 32768 rows x N in
{1024, 4096, 8192, 32768}, f32 and bf16, a 4096^3 bf16 matmul and the
Llama-3-8B projections (bf16, M = 128 and 4096). Each case
is a Tensor IR function and what run.py needs to build the same computation
in PyTorch."""

M = 32768
NS = [1024, 4096, 8192, 32768]
DTYPES = ["f32", "bf16"]
BYTES = {"f32": 4, "bf16": 2}


def t(shape, dtype):
    return "tensor<" + "x".join(map(str, shape)) + "x" + dtype + ">"


def row_case(op, n, dtype):
    x, v = t([M, n], dtype), t([n], dtype)
    b = BYTES[dtype]
    if op == "rmsnorm":
        body = f"%y = xtensor.rms_norm %x weight %w eps 1.0e-6 : ({x}, {v}) -> {x}"
        args, inputs = f"%x: {x}, %w: {v}", [[M, n], [n]]
        traffic = 2 * M * n * b + n * b
    elif op == "layernorm":
        body = (f"%y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5 : "
                f"({x}, {v}, {v}) -> {x}")
        args, inputs = f"%x: {x}, %w: {v}, %b: {v}", [[M, n], [n], [n]]
        traffic = 2 * M * n * b + 2 * n * b
    elif op == "softmax":
        body = f"%y = xtensor.softmax %x dim 1 : {x}"
        args, inputs = f"%x: {x}", [[M, n]]
        traffic = 2 * M * n * b
    elif op == "swiglu":
        body = (f"%s = xtensor.silu %x : {x}\n  "
                f"%y = xtensor.mul %s, %g : {x}")
        args, inputs = f"%x: {x}, %g: {x}", [[M, n], [M, n]]
        traffic = 3 * M * n * b
    elif op == "add_rmsnorm":
        body = (f"%h = xtensor.add %x, %r : {x}\n  "
                f"%y = xtensor.rms_norm %h weight %w eps 1.0e-6 : ({x}, {v}) -> {x}")
        args, inputs = f"%x: {x}, %r: {x}, %w: {v}", [[M, n], [M, n], [n]]
        traffic = 3 * M * n * b + n * b
    name = f"{op}_{dtype}_{n}"
    mlir = (f"func.func @{name}({args}) -> {x} {{\n  {body}\n"
            f"  return %y : {x}\n}}\n")
    return {"name": name, "op": op, "dtype": dtype, "shape": [M, n],
            "inputs": inputs, "outputs": [[M, n]], "bytes": traffic,
            "flops": 0, "mlir": mlir}


def matmul_case(n=4096):
    a = t([n, n], "bf16")
    name = f"matmul_bf16_{n}"
    mlir = (f"func.func @{name}(%a: {a}, %b: {a}) -> {a} {{\n"
            f"  %c = xtensor.matmul %a, %b : {a}, {a} -> {a}\n"
            f"  return %c : {a}\n}}\n")
    return {"name": name, "op": "matmul", "dtype": "bf16", "shape": [n, n],
            "inputs": [[n, n], [n, n]], "outputs": [[n, n]],
            "bytes": 3 * n * n * 2, "flops": 2 * n ** 3, "mlir": mlir}


# Llama-3-8B's projections as nn.Linear computes them (x W^T, W [out, in]):
# QKV, O, gate+up, down; at prefill (M = 4096) and small batches (M = 128).
LLAMA = [("qkv", 6144, 4096), ("o", 4096, 4096), ("gate_up", 28672, 4096),
         ("down", 4096, 14336)]


def linear_case(proj, m, n, k):
    x, w, y = t([m, k], "bf16"), t([n, k], "bf16"), t([m, n], "bf16")
    name = f"linear_{proj}_bf16_m{m}"
    mlir = (f"func.func @{name}(%x: {x}, %w: {w}) -> {y} {{\n"
            f"  %y = xtensor.linear %x, %w : ({x}, {w}) -> {y}\n"
            f"  return %y : {y}\n}}\n")
    # "shape" is [M, K]: inputs are scaled by 1/sqrt(K).
    return {"name": name, "op": "linear", "dtype": "bf16", "shape": [m, k],
            "inputs": [[m, k], [n, k]], "outputs": [[m, n]],
            "bytes": (m * k + n * k + m * n) * 2, "flops": 2 * m * n * k,
            "mlir": mlir}


def all_cases():
    out = []
    for op in ["rmsnorm", "layernorm", "softmax", "swiglu", "add_rmsnorm"]:
        for dtype in DTYPES:
            for n in NS:
                out.append(row_case(op, n, dtype))
    out.append(matmul_case())
    for proj, n, k in LLAMA:
        for m in (128, 4096):
            out.append(linear_case(proj, m, n, k))
    return out
