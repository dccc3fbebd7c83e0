# Summing scatters through xtile.compile under the CPU emulation, against
# eager: an embedding's gradient (index_put with accumulate), index_add,
# scatter_add with an index over every dimension, integers (wrapping as
# eager does), 16-bit floats (added in f32, rounded once: into one f32
# slot per write where the table is at least twice the writes, else into
# an f32 copy of the destination), and
# grid_sample's backward of images and volumes (its input's gradient a
# scatter-add of the taps; bilinear, nearest and bicubic, trilinear and
# tricubic, with every padding). Past
# ATOMIC_WRITES writes per destination they are xtensor.scatter_add (a fill
# and one kernel of atomic adds); with few writes, or deterministic
# algorithms requested, each element compares itself with the writes that
# may reach it. Prints one line per case: the path, the kernel count and
# the largest difference from eager relative to the result's largest
# magnitude.
import subprocess
import sys

import torch

import xtile
from opinfo import Fn
from xtile import runtime


def lowered(module, args):
    """(whether the module imports to xtensor.scatter_add, kernel count)."""
    text = xtile.import_module(module, args)
    out = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-kernel"], input=text,
                         capture_output=True, text=True, check=True).stdout
    return "xtensor.scatter_add" in text, out.count("xkernel.func @")


def embedding_grad(num, padding_idx=-1):
    return lambda g, ids: torch.ops.aten.embedding_dense_backward(g, ids, num, padding_idx,
                                                                  False)


def cases():
    """(name, function, inputs, relative tolerance)."""
    torch.manual_seed(0)
    r = torch.randn
    ids = torch.randint(0, 1000, (4, 50))
    hot = torch.randint(0, 3, (4, 50))  # most writes meet
    return [
        ("index_put accumulate f32", lambda t, i, g: t.index_put((i,), g, accumulate=True),
         (r(1000, 64), ids, r(4, 50, 64)), 1e-6),
        ("index_put accumulate bf16", lambda t, i, g: t.index_put((i,), g, accumulate=True),
         (r(1000, 64).bfloat16(), ids, r(4, 50, 64).bfloat16()), 8e-3),
        ("embedding backward f32", embedding_grad(1000), (r(4, 50, 64), ids), 1e-6),
        ("embedding backward bf16", embedding_grad(1000), (r(4, 50, 64).bfloat16(), ids), 8e-3),
        ("index_put accumulate f16 small table",
         lambda t, i, g: t.index_put((i,), g, accumulate=True),
         (r(40, 64).half(), torch.randint(0, 40, (200,)), r(200, 64).half()), 2e-3),
        ("embedding backward padding_idx", embedding_grad(1000, 7),
         (r(4, 50, 64), torch.where(ids % 5 == 0, 7, ids)), 1e-6),
        ("embedding backward hot rows", embedding_grad(3), (r(4, 50, 64), hot), 1e-6),
        ("index_add dim 1 f64", lambda x, i, s: x.index_add(1, i, s),
         (r(3, 7, 5).double(), torch.randint(0, 7, (40,)), r(3, 40, 5).double()), 1e-12),
        ("scatter_add dim 0 f32", lambda x, i, s: x.scatter_add(0, i, s),
         (r(6, 8), torch.randint(0, 6, (40, 8)), r(40, 8)), 1e-6),
        ("scatter_add int64", lambda x, i, s: x.scatter_add(1, i, s),
         (torch.randint(-9, 9, (3, 5)), torch.randint(0, 5, (3, 60)),
          torch.randint(-9, 9, (3, 60))), 0.0),
        ("index_put accumulate int8 wraps", lambda t, i, g: t.index_put((i,), g, accumulate=True),
         (torch.randint(-100, 100, (4, 16), dtype=torch.int8), torch.randint(0, 4, (64,)),
          torch.randint(-100, 100, (64, 16), dtype=torch.int8)), 0.0),
        ("index_put accumulate few writes", lambda t, i, g: t.index_put((i,), g, accumulate=True),
         (r(100, 64), torch.randint(0, 100, (8,)), r(8, 64)), 1e-6),
    ] + [(f"grid_sampler_2d backward {m} {p}{' align' if a else ''}", grid_backward(i, j, a),
          (r(2, 3, 4, 6), r(2, 3, 5, 7), torch.rand(2, 4, 6, 2) * 2.6 - 1.3), 1e-5)
         for (i, m), (j, p), a in (((0, "bilinear"), (0, "zeros"), False),
                                   ((0, "bilinear"), (1, "border"), True),
                                   ((0, "bilinear"), (2, "reflection"), False),
                                   ((0, "bilinear"), (2, "reflection"), True),
                                   ((1, "nearest"), (0, "zeros"), False),
                                   ((1, "nearest"), (2, "reflection"), True),
                                   ((2, "bicubic"), (0, "zeros"), False),
                                   ((2, "bicubic"), (2, "reflection"), True))] \
      + [(f"grid_sampler_3d backward {m} {p}{' align' if a else ''}", grid_backward(i, j, a, 3),
          (r(2, 3, 3, 4, 5), r(2, 3, 4, 5, 6), torch.rand(2, 3, 4, 5, 3) * 2.6 - 1.3), 1e-5)
         for (i, m), (j, p), a in (((0, "trilinear"), (0, "zeros"), False),
                                   ((0, "trilinear"), (2, "reflection"), True),
                                   ((1, "nearest"), (1, "border"), False),
                                   ((2, "tricubic"), (1, "border"), True),
                                   ((2, "tricubic"), (2, "reflection"), False))]


def grid_backward(mode, padding, align, dims=2):
    """grid_sample's backward: the input's gradient a scatter-add of the
    taps, the grid's from the values they read."""
    op = torch.ops.aten.grid_sampler_2d_backward if dims == 2 \
        else torch.ops.aten.grid_sampler_3d_backward
    return lambda go, x, grid: op(go, x, grid, mode, padding, align, [True, True])


def check(name, f, args, tol):
    module = Fn(f).eval()
    with torch.no_grad():
        want = module(*args)
        got = xtile.compile(module, args, backend="emu")(*args)
    got, want = (got, want) if isinstance(want, (tuple, list)) else ((got,), (want,))
    error = 0.0
    for g, w in zip(got, want):
        if g.dtype != w.dtype or g.shape != w.shape:
            return False, f"{name}: FAILED ({g.dtype} {tuple(g.shape)} for eager's " \
                          f"{w.dtype} {tuple(w.shape)})"
        if w.is_floating_point():
            scale = w.double().abs().max().item() or 1.0
            error = max(error, (g.double() - w.double()).abs().max().item() / scale)
        else:
            error = max(error, float((g != w).sum().item()))
    atomic, kernels = lowered(module, args)
    ok = error <= tol
    return ok, (f"{name}: {'ok' if ok else 'FAILED'} ({'atomic' if atomic else 'compared'}, "
                f"{kernels} kernels, error {error:.1e})")


def main():
    passed = failed = 0
    for name, f, args, tol in cases():
        try:
            ok, line = check(name, f, args, tol)
        except Exception as e:  # noqa: BLE001 - reported
            ok, line = False, f"{name}: FAILED {type(e).__name__}: {str(e)[:300]}"
        print(line)
        sys.stdout.flush()
        passed, failed = passed + ok, failed + (not ok)
    # Deterministic algorithms requested: float sums keep the comparing
    # path (atomic float adds round in the order the threads meet).
    torch.use_deterministic_algorithms(True)
    try:
        name, f, args, tol = cases()[0]
        ok, line = check(name + " deterministic", f, args, tol)
    except Exception as e:  # noqa: BLE001 - reported
        ok, line = False, f"deterministic: FAILED {type(e).__name__}: {str(e)[:300]}"
    finally:
        torch.use_deterministic_algorithms(False)
    print(line)
    passed, failed = passed + ok, failed + (not ok)
    print(f"scatter-add: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
