//===- WgmmaDot.cpp - Dots on warpgroup tensor cores (wgmma) --------------===//
//
// A dot whose schedule says `instruction = wgmma` (sm_90a): each warpgroup
// (4 warps) computes 64 rows of the [block_m, block_n] output tile with
// wgmma.mma_async.m64nNk16, N = block_n, reading both operands straight
// from shared memory through matrix descriptors, in the 128-byte swizzle
// layout (1024-byte aligned atoms of 8 rows of 128 bytes, each 16-byte
// chunk XORed with its row % 8, as sharedOffset lays tiles out):
//  - A is K-major, staged row by row (rows of 64 16-bit elements);
//  - B is K-major, staged column by column ([n][k]), where it is contiguous
//    along K in memory (x W^T); otherwise N-major, staged row by row in
//    panels of 64 columns, block_k x 128 bytes each, one after the other
//    (x W with W [K, N]): the instruction transposes it (imm-trans-b) and
//    its descriptor steps from panel to panel by the panel's bytes.
// The accumulator is laid out as for mma.sync with one warp per 16 rows
// (Layouts.cpp): lane 4g + t of warp w holds, for each 8 columns i, rows
// 16w + g and 16w + g + 8, columns 8i + 2t and 8i + 2t + 1, which is
// wgmma's D fragment.
//
// Per step of 64 along K: fence the accumulators (wgmma.fence), issue four
// wgmma chained through the accumulator (k = 0, 16, 32, 48: the descriptors
// start 32 bytes further each), commit them as a group and wait for it
// before the accumulators are read again.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "xtile/Support/Storage.h"

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
  int64_t n = accType.getDimSize(1);
  // B in either orientation where N is whole panels; else K-major.
  int64_t panel = 128 / getElementBytes(rhsType.getElementType());
  FailureOr<DotOperands> staged = stageDot(
      op, /*lhsOrientation=*/false,
      n % panel ? std::optional<bool>(true) : std::nullopt);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  bool bKMajor = stagedTransposed.contains(op.getRhs());
  IntegerAttr panelBytes;
  if (!bKMajor) {
    // The xtile-test-mutate=panel mutation gives the descriptor a panel
    // stride one atom short.
    int64_t bytes = k * 128 - (testMutation == "panel" ? 1024 : 0);
    panelBytes = b.getI64IntegerAttr(bytes);
  }
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
                                      /*reading=*/true, bKMajor));
    }
  }
  xk::WgmmaFenceOp::create(b, loc);
  Value d = vector::FromElementsOp::create(b, loc, accVector, staged->slots);
  for (int64_t ks = 0; ks < k / 16; ++ks)
    d = xk::WgmmaOp::create(b, loc, accVector, a->first,
                            add(a->second, aOffsets[ks]), bb->first,
                            add(bb->second, bOffsets[ks]), panelBytes, d);
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
