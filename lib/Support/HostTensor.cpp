//===- HostTensor.cpp - dense tensors on the host -------------------------===//

#include "xtile/Support/HostTensor.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using llvm::APFloat;

double xtile::roundToType(Type t, double v) {
  auto f = dyn_cast<FloatType>(t);
  if (!f || f.isF64())
    return v;
  if (f.isF32())
    return double(float(v));
  APFloat x(v);
  bool lost;
  x.convert(f.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
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
