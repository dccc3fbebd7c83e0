//===- Storage.cpp - how values are laid out in device memory -------------===//

#include "xtile/Support/Storage.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>

using namespace mlir;

int64_t xtile::getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

int64_t xtile::getNumBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  return shaped.getNumElements() * getElementBytes(shaped.getElementType());
}

int64_t xtile::getStaticNumBytes(Type shaped) {
  auto type = cast<ShapedType>(shaped);
  int64_t bytes = getElementBytes(type.getElementType());
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d))
      bytes *= d;
  return bytes;
}

bool xtile::isFp8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(type));
}

bool xtile::hasFp8Conversions(StringRef arch) {
  unsigned number = 0;
  if (!arch.consume_front("sm_"))
    return false;
  arch.consumeInteger(10, number);
  return number >= 89;
}

bool xtile::roundsToFp8(Operation *root) {
  auto wideFloat = [](Type t) {
    return isa<FloatType>(getElementTypeOrSelf(t)) && !isFp8(t);
  };
  return root
      ->walk([&](Operation *op) {
        return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
                       isFp8(op->getResult(0).getType()) &&
                       llvm::any_of(op->getOperandTypes(), wideFloat)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}
