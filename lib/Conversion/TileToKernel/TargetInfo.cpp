//===- TargetInfo.cpp - what the Tile-to-Kernel lowering asks of a GPU ----===//

#include "TargetInfo.h"

#include "xtile/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

int64_t TargetInfo::consumerRegisters(int64_t need, int64_t consumers,
                                      int64_t producers,
                                      int64_t producerRegisters) const {
  // ptxas allots the kernel its launch bound's share of the SM's registers
  // per thread (at most a thread's maximum), in steps of 8; the producers
  // give back all but `producerRegisters` of theirs, which the consumers
  // may take where they need more than the share.
  int64_t threads = consumers + producers;
  int64_t share =
      std::min(maxRegistersPerThread(), registersPerSM() / threads) / 8 * 8;
  int64_t pool = share * threads - producerRegisters * producers;
  return std::min({int64_t(llvm::alignTo(need, 8)), kMaxSetRegisters,
                   pool / consumers / 8 * 8});
}

void TargetInfo::barrier(OpBuilder &b, Location loc,
                         int64_t namedThreads) const {
  if (namedThreads > 0)
    kernel::BarrierOp::create(b, loc, b.getI64IntegerAttr(1),
                              b.getI64IntegerAttr(namedThreads));
  else
    kernel::BarrierOp::create(b, loc, IntegerAttr(), IntegerAttr());
}

Value TargetInfo::shuffleXor(OpBuilder &b, Location loc, Value v,
                             int64_t offset) const {
  Type type = v.getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), f32 = b.getF32Type();
  Value off = arith::ConstantIntOp::create(b, loc, i32, offset);
  auto shuffle = [&](Value x) -> Value {
    return kernel::ShuffleOp::create(b, loc, kernel::ShuffleKind::Xor, x, off,
                                     kWarpSize);
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle(v);
  if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 32)
    return arith::TruncFOp::create(
        b, loc, type, shuffle(arith::ExtFOp::create(b, loc, f32, v)));
  if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    return arith::TruncIOp::create(
        b, loc, type, shuffle(arith::ExtUIOp::create(b, loc, i32, v)));
  Value bits = v;
  if (type.isIndex())
    bits = arith::IndexCastOp::create(b, loc, i64, v);
  else if (type.isF64())
    bits = arith::BitcastOp::create(b, loc, i64, v);
  Value lo = arith::TruncIOp::create(b, loc, i32, bits);
  Value hi = arith::TruncIOp::create(
      b, loc, i32,
      arith::ShRUIOp::create(b, loc, bits,
                             arith::ConstantIntOp::create(b, loc, i64, 32)));
  Value lo2 = arith::ExtUIOp::create(b, loc, i64, shuffle(lo));
  Value hi2 = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, shuffle(hi)),
      arith::ConstantIntOp::create(b, loc, i64, 32));
  Value joined = arith::OrIOp::create(b, loc, lo2, hi2);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, joined);
  if (type.isF64())
    return arith::BitcastOp::create(b, loc, type, joined);
  return joined;
}
