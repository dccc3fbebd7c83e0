//===- HostTensor.cpp - dense tensors on the host -------------------------===//

#include "xtile/Support/HostTensor.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using llvm::APFloat;

APFloat xtile::roundFloat(const APFloat &v, FloatType to) {
  APFloat x = v;
  bool lost;
  // fp8 NaN is PyTorch's (and the GPU's) 0x7f, with the sign kept.
  if (to.getWidth() == 8 && x.isNaN())
    return APFloat(to.getFloatSemantics(),
                   APInt(8, 0x7f | (x.isNegative() ? 0x80 : 0)));
  // e4m3fn has no infinity: PyTorch saturates what lies beyond its largest
  // finite value (infinities included) to +-448; NaN stays NaN. Every other
  // type rounds to nearest even with IEEE overflow (e5m2: to infinity).
  if (isa<Float8E4M3FNType>(to) && !x.isNaN()) {
    APFloat max = APFloat::getLargest(to.getFloatSemantics(), x.isNegative());
    max.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
    if (x.isInfinity() || abs(x) > abs(max))
      x = max;
  }
  x.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
  return x;
}

double xtile::roundToType(Type t, double v) {
  auto f = dyn_cast<FloatType>(t);
  if (!f || f.isF64())
    return v;
  if (f.isF32())
    return double(float(v));
  APFloat x = roundFloat(APFloat(v), f);
  bool lost;
  x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return x.convertToDouble();
}

int64_t xtile::wrapToType(Type t, int64_t v) {
  if (t.isIndex())
    return v;
  unsigned w = t.getIntOrFloatBitWidth();
  if (w == 1)
    return v != 0;
  if (w >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (w - 1))
    u |= ~mask; // sign-extend
  return int64_t(u);
}
