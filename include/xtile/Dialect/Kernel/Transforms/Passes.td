//===- Passes.td - xkernel passes -------------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
#define XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def XKernelExpandMath : Pass<"xkernel-expand-math"> {
  let summary = "Build math functions on the special-function units";
  let description = [{
    Rewrites the f32 math functions of kernel bodies (and those of f16 and
    bf16, through f32) into arithmetic around `xkernel.approx`
    instructions, so that both emitters, CUDA C and PTX, compute them with
    the same instructions and the same accuracy:

    | function | default | `fast-math` |
    |---|---|---|
    | `exp` | `ex2` of t = x·log2(e) rounded, times 1 + (x − t·ln 2) | `ex2.ftz` of x·log2(e) |
    | `exp2` | `ex2` | `ex2.ftz` |
    | `log`, `log2` | polynomial in s = f/(2+f), f = m − 1 (`rcp` for s) | `lg2.ftz` (times ln 2) |
    | `tanh` | odd polynomial below 1.0625, else 1 − 2/(e^{2x}+1) | the second form everywhere, fast `exp` |
    | `erf` | odd polynomial below 1, else 1 − exp(polynomial) | the same, fast `exp` |
    | `rsqrt` | `rsqrt` and one Newton step | `rsqrt.ftz` |
    | `sqrt`, division | IEEE (correctly rounded), as CUDA's default | `sqrt.ftz`, a·`rcp`(b) |

    docs/Math.md gives the error bound of each, measured under the CPU
    emulation (test/Integration/math-ulp.test). The pass is the last step
    of `--lower-to-kernel`, and both translators run it on what is left,
    so hand-written Kernel IR gets the same math.
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Use the bare approximate instructions (see the table)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::xtile::kernel::XKernelDialect"];
}

#endif // XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
