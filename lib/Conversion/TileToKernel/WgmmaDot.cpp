//===- WgmmaDot.cpp - Dots on warpgroup tensor cores (wgmma) --------------===//
//
// A dot whose schedule says `instruction = wgmma` (sm_90a): each warpgroup
// (4 warps) computes 64 or 128 rows (one or two blocks of 64, each with
// its own accumulator) of the [block_m, block_n] output tile with
// wgmma.mma_async.m64nNk16 (m64nNk8 on tf32: f32 operands rounded to tf32
// when they land, see lowerFor and stageOperand; m64nNk32 on fp8),
// N = block_n, reading
// both operands straight
// from shared memory through matrix descriptors, in the 128-byte swizzle
// layout (1024-byte aligned atoms of 8 rows of 128 bytes, each 16-byte
// chunk XORed with its row % 8, as sharedOffset lays tiles out):
//  - A is K-major, staged row by row (rows of 128 fp8, 64 16-bit or 32
//    f32 elements);
//  - B is K-major, staged column by column ([n][k]), where it is contiguous
//    along K in memory (x W^T), and always on tf32 and fp8; otherwise
//    N-major,
//    staged row by row in
//    panels of 64 columns, block_k x 128 bytes each, one after the other
//    (x W with W [K, N]): the instruction transposes it (imm-trans-b) and
//    its descriptor steps from panel to panel by the panel's bytes.
// The accumulator is laid out as for mma.sync with 16 rows of each block
// per warp (Coordinates.cpp): lane 4g + t of warp w holds, for each block r
// and 8 columns i, rows 64r + 16w + g and 64r + 16w + g + 8, columns
// 8i + 2t and 8i + 2t + 1, which is wgmma's D fragment of block r.
//
// Per step of 128 bytes along K: fence the accumulators (wgmma.fence),
// issue four wgmma per block chained through its accumulator (k = 0, 16,
// 32, 48; 0, 8, 16, 24 on tf32; 0, 32, 64, 96 on fp8: the descriptors
// start 32 bytes further each), commit them as a group and
// wait for it before the accumulators are read again; in a loop pipelined
// over 3 or more stages, wait only for the previous iteration's group
// (wgmma_wait 1), the accumulators going straight to the next iteration's
// wgmma (see lowerFor).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "OpLowering.h"

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
  int64_t bytes = getElementBytes(lhsType.getElementType());
  // tf32 and fp8 operands are read K-major only.
  bool kMajorOnly = bytes != 2;
  if (k * bytes != 128)
    return op.emitOpError("wgmma reads K-major operand tiles of 128 bytes "
                          "per row (one 128-byte swizzle atom: 128 fp8, 64 "
                          "16-bit or 32 f32 elements); the tile has ")
           << k;
  int64_t n = accType.getDimSize(1);
  // K per instruction: 32 bytes of each row.
  int64_t kStep = 32 / bytes;
  // B in either orientation where N is whole panels; else K-major (always
  // on tf32 and fp8, which wgmma reads K-major only).
  int64_t panel = 128 / bytes;
  FailureOr<DotOperands> staged = stageDot(
      op, /*lhsOrientation=*/false,
      n % panel || kMajorOnly ? std::optional<bool>(true) : std::nullopt);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  bool bKMajor = stagedTransposed.contains(op.getRhs());
  IntegerAttr panelBytes;
  if (!bKMajor) {
    int64_t stride = overrides.wgmmaPanelStride(k * 128);
    panelBytes = b.getI64IntegerAttr(stride);
  }
  auto accVector = VectorType::get({n / 2}, b.getF32Type());
  // Each warpgroup computes `blocks` blocks of 64 rows (one accumulator
  // each: the slots of block r are the r-th n / 2 of the thread's, see
  // baseCoords).
  int64_t rowsPerGroup = accType.getDimSize(0) / (layouts.numWarps() / 4);
  int64_t blocks = rowsPerGroup / 64;

  // Block r of warpgroup q's rows of A starts at row q rowsPerGroup + 64 r;
  // B is all of the tile. Step ks of K starts at column 16 ks (32 bytes
  // into each row).
  SmallVector<Value> aOffsets, bOffsets; // [r][ks], [ks]
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ix.prelude);
    Value firstRow = mul(div(warp, 4), cst(rowsPerGroup));
    for (int64_t r = 0; r < blocks; ++r)
      for (int64_t ks = 0; ks < k / kStep; ++ks)
        aOffsets.push_back(sharedOffset(lhsType, add(firstRow, cst(64 * r)),
                                        cst(kStep * ks), /*reading=*/true));
    for (int64_t ks = 0; ks < k / kStep; ++ks)
      bOffsets.push_back(sharedOffset(rhsType, cst(kStep * ks), cst(0),
                                      /*reading=*/true, bKMajor));
  }
  xk::WgmmaFenceOp::create(b, loc);
  SmallVector<Value> d;
  for (int64_t r = 0; r < blocks; ++r)
    d.push_back(vector::FromElementsOp::create(
        b, loc, accVector,
        ArrayRef<Value>(staged->slots).slice(r * (n / 2), n / 2)));
  for (int64_t ks = 0; ks < k / kStep; ++ks)
    for (int64_t r = 0; r < blocks; ++r)
      d[r] = xk::WgmmaOp::create(
          b, loc, accVector, a->first,
          add(a->second, aOffsets[r * (k / kStep) + ks]), bb->first,
          add(bb->second, bOffsets[ks]), panelBytes, d[r]);
  xk::WgmmaCommitOp::create(b, loc);
  SmallVector<Value> results = d;
  if (overlapLoop && op->getParentOp() == overlapLoop) {
    // The group stays in flight until the next iteration's wait: its
    // accumulators go, unread, to the next iteration's wgmma (lowerFor
    // waits for the last group after the loop).
    xk::WgmmaWaitOp::create(b, loc, TypeRange{}, b.getI64IntegerAttr(1),
                            ValueRange{});
  } else {
    results = xk::WgmmaWaitOp::create(b, loc,
                                      SmallVector<Type>(blocks, accVector),
                                      b.getI64IntegerAttr(0), d)
                  .getResults();
  }
  SmallVector<Value> slots;
  for (Value ready : results)
    for (int64_t i = 0; i < n / 2; ++i)
      slots.push_back(vector::ExtractOp::create(b, loc, ready, i));
  remember(op.getResult(), cs, slots);
  return success();
}

//===----------------------------------------------------------------------===//
// The family's lowering
//===----------------------------------------------------------------------===//

void xtile::tiletokernel::populateWgmmaDotLowerings(OpLoweringSet &set,
                                                    const TargetInfo &target) {
  if (target.hasWgmma())
    set.add<DotLowering>(xt::DotInstruction::wgmma,
                         &KernelLowering::lowerWgmmaDot);
}
