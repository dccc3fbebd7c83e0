//===- WgmmaDot.cpp - Dots on warpgroup tensor cores (wgmma) --------------===//
//
// A dot whose schedule says `instruction = wgmma` (sm_90a): each warpgroup
// (4 warps) computes 64 rows of the [block_m, block_n] output tile with
// wgmma.mma_async.m64nNk16, N = block_n, reading both operands straight
// from shared memory through matrix descriptors. The operand tiles are
// K-major with rows of 64 16-bit elements (128 bytes), swizzled as
// sharedOffset does, which for 128-byte rows is the 128-byte swizzle the
// tensor cores apply to shared addresses (in 1024-byte aligned atoms): A is
// staged row by row, B column by column ([n][k]). The accumulator is laid
// out as for mma.sync with one warp per 16 rows (Layouts.cpp): lane 4g + t
// of warp w holds, for each 8 columns i, rows 16w + g and 16w + g + 8,
// columns 8i + 2t and 8i + 2t + 1, which is wgmma's D fragment.
//
// Per step of 64 along K: fence the accumulators (wgmma.fence), issue four
// wgmma chained through the accumulator (k = 0, 16, 32, 48: the descriptors
// start 32 bytes further each), commit them as a group and wait for it
// before the accumulators are read again.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

LogicalResult KernelLowering::lowerWgmmaDot(xt::DotOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto accType = cast<RankedTensorType>(op.getAcc().getType());
  int64_t k = lhsType.getDimSize(1);
  if (k != 64)
    return op.emitOpError("wgmma reads K-major operand tiles of 64 columns "
                          "(one 128-byte swizzle atom per row); the tile "
                          "has ")
           << k;
  FailureOr<DotOperands> staged =
      stageDot(op, /*lhsOrientation=*/false, /*rhsOrientation=*/true);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  int64_t n = accType.getDimSize(1);
  auto accVector = VectorType::get({n / 2}, b.getF32Type());

  // The warpgroup's 64 rows of A start at row 64 q; B is all of the tile.
  // Step ks of K starts at column 16 ks (32 bytes into each row).
  SmallVector<Value> aOffsets, bOffsets;
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(prelude);
    Value firstRow = mul(div(warp, 4), cst(64));
    for (int64_t ks = 0; ks < k / 16; ++ks) {
      aOffsets.push_back(sharedOffset(lhsType, firstRow, cst(16 * ks),
                                      /*reading=*/true));
      bOffsets.push_back(sharedOffset(rhsType, cst(16 * ks), cst(0),
                                      /*reading=*/true, /*transposed=*/true));
    }
  }
  xk::WgmmaFenceOp::create(b, loc);
  Value d = vector::FromElementsOp::create(b, loc, accVector, staged->slots);
  for (int64_t ks = 0; ks < k / 16; ++ks)
    d = xk::WgmmaOp::create(b, loc, accVector, a->first,
                            add(a->second, aOffsets[ks]), bb->first,
                            add(bb->second, bOffsets[ks]), d);
  xk::WgmmaCommitOp::create(b, loc);
  Value ready = xk::WgmmaWaitOp::create(b, loc, TypeRange{accVector},
                                        b.getI64IntegerAttr(0), ValueRange{d})
                    .getResult(0);
  SmallVector<Value> slots;
  for (int64_t i = 0; i < n / 2; ++i)
    slots.push_back(vector::ExtractOp::create(b, loc, ready, i));
  remember(op.getResult(), cs, slots);
  return success();
}
