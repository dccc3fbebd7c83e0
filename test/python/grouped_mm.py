# Grouped GEMMs (aten._grouped_mm, transformers' grouped_mm_fallback)
# through xtile.compile under the CPU emulation, against each group's rows
# times its matrix computed by eager PyTorch: ragged groups, empty groups,
# every row in one group, fewer rows than groups, rows past the last
# offset (zeros), bf16 and f32, block rows of 16 to 64. Each case prints
# its largest difference from the reference, its kernel count, and the
# grouped GEMM's schedule at sm_90 (one kernel on tensor cores for 16-bit
# operands, in groups of blocks; docs/Frontend.md, "Mixture-of-experts
# models"); then a closing count.
import re
import subprocess
import sys

import torch
import transformers.integrations.moe  # noqa: F401  (grouped_mm_fallback)

import xtile


class Grouped(torch.nn.Module):
    def __init__(self, groups, k, n, dtype, fallback):
        super().__init__()
        torch.manual_seed(groups * k + n)
        self.w = torch.nn.Parameter(torch.randn(groups, k, n, dtype=dtype) / k ** 0.5)
        self.fallback = fallback

    def forward(self, x, offs):
        if self.fallback:
            return torch.ops.transformers.grouped_mm_fallback(x, self.w, offs)
        return torch._grouped_mm(x, self.w, offs=offs)


def reference(x, w, ends):
    out = torch.zeros(x.shape[0], w.shape[2], dtype=torch.float64)
    start = 0
    for e, end in enumerate(ends):
        out[start:end] = x[start:end].double() @ w[e].double()
        start = end
    return out


def schedule(module, x, offs):
    text = xtile.import_module(module, (x, offs))
    tile = subprocess.run(["xtile-opt", "--lower-to-tile=target=sm_90"], input=text,
                          capture_output=True, text=True, check=True).stdout
    grouped = [m for m in re.finditer(r"xtile\.kernel @\w+\(.*?attributes \{(.*?)\} \{$",
                                      tile, re.M)
               if "xtile.batch_group" in m.group(1)]
    if len(grouped) != 1:
        return f"{len(grouped)} grouped GEMM kernels"
    attrs = grouped[0].group(1)
    inst = re.search(r"instruction = (\w+)", attrs)
    group = re.search(r"batch_group = (\d+)", attrs).group(1)
    return f"{inst.group(1) if inst else 'fma'}, batch_group {group}"


def run(module, rows, k, ends, dtype):
    """`module` compiled and called on `rows` random rows of `k` and the
    offsets `ends`: (rows, offsets, the compiled module, its result)."""
    torch.manual_seed(rows)
    x = torch.randn(rows, k, dtype=dtype)
    offs = torch.tensor(ends, dtype=torch.int32)
    compiled = xtile.compile(module, (x, offs))
    return x, offs, compiled, compiled(x, offs)


def case(name, rows, k, n, ends, dtype=torch.bfloat16, fallback=False):
    module = Grouped(len(ends), k, n, dtype, fallback)
    x, offs, compiled, got = run(module, rows, k, ends, dtype)
    ref = reference(x, module.w.detach(), ends)
    err = (got.double() - ref).abs().max().item()
    # The result rounds once from an f32 sum (bf16: half an ulp of the
    # largest value; f32: the sum's rounding).
    scale = ref.abs().max().item() or 1.0
    tol = scale * (2 ** -8 if dtype == torch.bfloat16 else 1e-5)
    past = got[ends[-1]:]
    ok = got.shape == ref.shape and err <= tol and bool((past == 0).all())
    print(f"{name}: {'ok' if ok else 'FAILED'} (max error {err:.3g}, tolerance "
          f"{tol:.3g}; {compiled.launches()} kernels; {schedule(module, x, offs)})")
    return ok


class ExpertMLPs(torch.nn.Module):
    """transformers' grouped_mm experts: one grouped GEMM for the
    concatenated gate and up projections, SwiGLU, one for down."""

    def __init__(self, groups, k, inter, dtype, fallback):
        super().__init__()
        torch.manual_seed(groups * k + inter)
        self.gate_up = torch.nn.Parameter(torch.randn(groups, k, 2 * inter, dtype=dtype) / k ** 0.5)
        self.down = torch.nn.Parameter(torch.randn(groups, inter, k, dtype=dtype) / inter ** 0.5)
        self.fallback = fallback

    def forward(self, x, offs):
        mm = (torch.ops.transformers.grouped_mm_fallback if self.fallback else
              lambda a, w, o: torch._grouped_mm(a, w, offs=o))
        gate, up = mm(x, self.gate_up, offs).chunk(2, dim=-1)
        return mm(torch.nn.functional.silu(gate) * up, self.down, offs)


def swiglu_case(name, rows, k, inter, ends, dtype=torch.bfloat16, fallback=False,
                blocked=True):
    """The experts' MLP against float64 per group. With `blocked` (rows
    that fill a block at least), the gate and up halves are two
    contractions of one kernel with SwiGLU as their epilogue, in the block
    layout the down projection reads: 2 grouped GEMM kernels, and no
    kernel writes the [rows, 2 x inter] projection. Fewer rows than a
    block take the rows' own products (the blocks' padding is not
    computed as rows)."""
    module = ExpertMLPs(len(ends), k, inter, dtype, fallback)
    x, offs, compiled, got = run(module, rows, k, ends, dtype)
    wg, wu = module.gate_up.detach().double().chunk(2, dim=-1)
    h = torch.zeros(rows, inter, dtype=torch.float64)
    start = 0
    for e, end in enumerate(ends):
        xs = x[start:end].double()
        h[start:end] = torch.nn.functional.silu(xs @ wg[e]) * (xs @ wu[e])
        start = end
    ref = reference(h, module.down.detach(), ends)
    err = (got.double() - ref).abs().max().item()
    # 16-bit: the SwiGLU result is rounded to bf16 before the down
    # projection (as eager rounds it), a relative 2^-9 per term.
    scale = ref.abs().max().item() or 1.0
    tol = scale * (2 ** -6 if dtype == torch.bfloat16 else 1e-5)
    text = xtile.import_module(module, (x, offs))
    tile = subprocess.run(["xtile-opt", "--lower-to-tile=target=sm_90"], input=text,
                          capture_output=True, text=True, check=True).stdout
    kernels = re.split(r"^  xtile\.kernel ", tile, flags=re.M)[1:]
    grouped = [kern for kern in kernels if "xtile.batch_group" in kern.split("\n")[0]]
    dots = [len(re.findall(r"= xtile\.dot ", kern)) for kern in grouped]
    outputs = " ".join(kern.split("\n")[0].split(") -> (")[-1] for kern in kernels)
    wide = f"x{2 * inter}x" in outputs
    ok = (got.shape == ref.shape and err <= tol and bool((got[ends[-1]:] == 0).all())
          and (dots == [2, 1] and not wide) == blocked)
    print(f"{name}: {'ok' if ok else 'FAILED'} (max error {err:.3g}, tolerance {tol:.3g}; "
          f"{compiled.launches()} kernels; contractions per grouped GEMM kernel {dots}; "
          f"gate-and-up projection {'written' if wide else 'never written'})")
    return ok


def main():
    results = [
        case("ragged", 300, 64, 96, [5, 120, 126, 135, 135, 229, 264, 300]),
        case("empty groups", 300, 64, 96, [0, 0, 0, 300, 300, 300, 300, 300]),
        case("fewer rows than groups", 3, 64, 40, [0, 1, 1, 1, 2, 2, 3, 3]),
        case("rows past the last offset", 100, 64, 48, [10, 50, 80]),
        case("one group", 130, 32, 40, [130]),
        case("f32 fallback", 77, 48, 24, [20, 20, 60, 77], torch.float32, True),
        case("many groups", 512, 32, 64, [2 * e + (e % 3) for e in range(1, 65)][:63] + [512]),
        swiglu_case("experts' SwiGLU MLP", 300, 64, 96, [5, 120, 126, 135, 135, 229, 264, 280]),
        swiglu_case("experts' SwiGLU MLP, f32 fallback", 77, 48, 40, [20, 20, 60, 77],
                    torch.float32, True),
        swiglu_case("experts' SwiGLU MLP, fewer rows than a block", 6, 64, 96,
                    [0, 2, 2, 5, 6, 6, 6, 6], blocked=False),
    ]
    print(f"grouped_mm: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
