//===- FmaDot.cpp - Dots on the FP32 FMA pipes ----------------------------===//
//
// A dot whose schedule says `instruction = fma`: operand tiles staged in
// shared memory, each thread accumulating its slots of the output in f32,
// one fused multiply-add per slot and step of K, k = 0, 1, ... in order.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "OpLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

//===----------------------------------------------------------------------===//
// Dots on the FMA pipes
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerFmaDot(xt::DotOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto accType = cast<RankedTensorType>(op.getAcc().getType());
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2)
    return op.emitOpError("the Kernel IR lowering supports 2-d dots only");
  int64_t k = lhsType.getDimSize(1), n = rhsType.getDimSize(1);
  Type accElement = accType.getElementType();
  if (!accElement.isF32())
    return op.emitOpError("the Kernel IR lowering accumulates dots in f32 "
                          "only, got ")
           << accElement;
  FailureOr<DotOperands> staged = stageDot(op, std::nullopt, std::nullopt);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  SmallVector<Value> *acc = &staged->slots;
  const Layout &l = layouts[coordinates[cs].layout];
  const CoordSet &set = coordinates[cs];
  // A thread that owns no element of a chunk (the accumulator has fewer
  // groups than the block has threads) still runs the loop in step with the
  // others, and its coordinates lie past the tile: it reads the operand
  // tiles at the last row and column instead, so every shared-memory access
  // stays inside them. What it computes is never stored.
  int64_t m = lhsType.getDimSize(0);
  SmallVector<Value> rowAt(l.chunks), colAt(l.chunks);
  for (int64_t c = 0; c < l.chunks; ++c) {
    int64_t s0 = c * l.vec;
    rowAt[c] = set.coords[s0][0];
    colAt[c] = set.coords[s0][1];
    if (coordinates.owned(set.layout, c)) {
      rowAt[c] = b.createOrFold<arith::MinUIOp>(loc, rowAt[c], cst(m - 1));
      colAt[c] =
          b.createOrFold<arith::MinUIOp>(loc, colAt[c], cst(n - l.vec));
    }
  }
  Value zero = cst(0), one = cst(1);
  auto loop = scf::ForOp::create(b, loc, zero, cst(k), one, *acc);
  b.getContext()
      ->getOrLoadDialect<xk::XKernelDialect>()
      ->getUnrollAttrHelper()
      .setAttr(loop, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kk = loop.getInductionVar();
    Type f32 = b.getF32Type();
    auto widen = [&](Value v) -> Value {
      return v.getType() == f32 ? v : (Value)arith::ExtFOp::create(b, loc, f32, v);
    };
    DenseMap<Value, Value> rows;
    DenseMap<Value, SmallVector<Value>> cols;
    SmallVector<Value> next;
    for (int64_t c = 0; c < l.chunks; ++c) {
      int64_t s0 = c * l.vec;
      Value row = rowAt[c], col = colAt[c];
      if (!rows.count(row))
        rows[row] = widen(xk::LoadOp::create(
            b, loc, lhsType.getElementType(), a->first,
            add(a->second, add(mul(row, cst(k)), kk))));
      if (!cols.count(col)) {
        Value offset = add(bb->second, add(mul(kk, cst(n)), col));
        Type element = rhsType.getElementType();
        SmallVector<Value> lanes;
        if (l.vec == 1) {
          lanes.push_back(
              widen(xk::LoadOp::create(b, loc, element, bb->first, offset)));
        } else {
          Value v = xk::LoadOp::create(
              b, loc, VectorType::get({l.vec}, element), bb->first, offset);
          for (int64_t i = 0; i < l.vec; ++i)
            lanes.push_back(widen(vector::ExtractOp::create(b, loc, v, i)));
        }
        cols[col] = lanes;
      }
      for (int64_t i = 0; i < l.vec; ++i)
        next.push_back(math::FmaOp::create(b, loc, rows[row], cols[col][i],
                                           loop.getRegionIterArgs()[s0 + i]));
    }
    scf::YieldOp::create(b, loc, next);
  }
  remember(op.getResult(), cs, SmallVector<Value>(loop.getResults()));
  return success();
}

//===----------------------------------------------------------------------===//
// The family's lowering
//===----------------------------------------------------------------------===//

void xtile::tiletokernel::populateFmaDotLowerings(OpLoweringSet &set,
                                                  const TargetInfo &target) {
  set.add<DotLowering>(xt::DotInstruction::fma, &KernelLowering::lowerFmaDot);
}
