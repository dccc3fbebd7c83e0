//===- MmaSyncDot.cpp - Dots on tensor cores (mma.sync) -------------------===//
//
// A dot whose schedule says `instruction = mma_sync`: f16/bf16 operand
// tiles staged in shared memory (swizzled in 16-byte chunks, see
// sharedOffset), read into fragments with ldmatrix and multiplied with
// mma.sync.m16n8k16 into f32 accumulators.
//
// The warps form a warps_m x warps_n grid over the [block_m, block_n]
// output tile; warp (wm, wn) owns a WM x WN sub-tile of TM x TN blocks of
// 16 x 8, and its lanes hold the C fragments of those blocks (the
// accumulator layout, Layouts.cpp). Per step of 16 along K, the warp loads
// TM fragments of A (ldmatrix.x4: 16 x 16 each) and TN / 2 pairs of B
// fragments (ldmatrix.x4: 16 x 16, two 16 x 8 blocks; `.trans` where B is
// staged [k][n], none where it is staged [n][k] as PyTorch's weights are
// stored), then issues TM x TN mma.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

LogicalResult KernelLowering::lowerMmaSyncDot(xt::DotOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  Type element = lhsType.getElementType();
  // The Tile IR kernel verifier guarantees the types, parseSchedule the
  // accumulator's shape; the K step is the tile's.
  int64_t k = lhsType.getDimSize(1);
  if (k % 16)
    return op.emitOpError("mma.sync steps K by 16; the operand tile has ")
           << k << " columns";
  FailureOr<DotOperands> staged = stageDot(op, std::nullopt, std::nullopt);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  SmallVector<Value> &slots = staged->slots;

  int64_t warpsN = numWarps / dotSchedule.getWarpsM();
  int64_t wmSize = dotSchedule.getWarpTileM();
  int64_t wnSize = dotSchedule.getWarpTileN();
  int64_t tms = wmSize / 16, tns = wnSize / 8, ksteps = k / 16;

  // Where each lane's ldmatrix rows start in the tiles: lane l gives row
  // j = l % 8 of matrix q = l / 8. For A the four matrices are rows 0-7 /
  // 8-15 (q % 2) by columns 0-7 / 8-15 (q / 2) of a 16 x 16 block of
  // [m][k]; for B rows (k) 0-7 / 8-15 (q % 2) of columns (n) 0-7 / 8-15
  // (q / 2). A tile staged row by row gives its rows to ldmatrix; one
  // staged column by column (transposed) its columns, and the fragment
  // comes out right with `trans` for A and without for B. These depend on
  // the lane only: computed once per thread.
  bool aTransposed = stagedTransposed.contains(op.getLhs());
  bool bTransposed = stagedTransposed.contains(op.getRhs());
  SmallVector<Value> aOffsets, bOffsets; // [tm][ks], [pair][ks]
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(prelude);
    Value q = div(lane, 8), j = rem(lane, 8);
    Value low = mul(rem(q, 2), cst(8)), high = mul(div(q, 2), cst(8));
    Value zero = cst(0);
    Value aRow = add(add(mul(div(warp, warpsN), cst(wmSize)), low),
                     aTransposed ? zero : j);
    Value aCol = add(high, aTransposed ? j : zero);
    for (int64_t tm = 0; tm < tms; ++tm)
      for (int64_t ks = 0; ks < ksteps; ++ks)
        aOffsets.push_back(sharedOffset(
            lhsType, add(aRow, cst(16 * tm)), add(aCol, cst(16 * ks)),
            /*reading=*/true, aTransposed));
    Value bRow = add(low, bTransposed ? zero : j);
    Value bCol = add(add(mul(rem(warp, warpsN), cst(wnSize)), high),
                     bTransposed ? j : zero);
    for (int64_t pair = 0; pair < tns / 2; ++pair)
      for (int64_t ks = 0; ks < ksteps; ++ks)
        bOffsets.push_back(sharedOffset(
            rhsType, add(bRow, cst(16 * ks)), add(bCol, cst(16 * pair)),
            /*reading=*/true, bTransposed));
  }

  auto fragment = VectorType::get({8}, element);
  auto half = VectorType::get({4}, element);
  auto quad = VectorType::get({4}, b.getF32Type());
  auto lanesOf = [&](Value v, ArrayRef<int64_t> positions, VectorType type) {
    SmallVector<Value> lanes;
    for (int64_t p : positions)
      lanes.push_back(vector::ExtractOp::create(b, loc, v, p));
    return (Value)vector::FromElementsOp::create(b, loc, type, lanes);
  };
  // The B registers of the first 16 x 8 block, then the second; a test
  // mutation swaps a block's two registers (k 0-7 and 8-15).
  bool mutate = testMutation == "fragment";
  SmallVector<int64_t> first = mutate ? SmallVector<int64_t>{2, 3, 0, 1}
                                      : SmallVector<int64_t>{0, 1, 2, 3};
  SmallVector<int64_t> second = {4, 5, 6, 7};
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    SmallVector<Value> aFrag, bFrag;
    for (int64_t tm = 0; tm < tms; ++tm)
      aFrag.push_back(xk::LdMatrixOp::create(
          b, loc, fragment, a->first,
          add(a->second, aOffsets[tm * ksteps + ks]), aTransposed));
    for (int64_t pair = 0; pair < tns / 2; ++pair) {
      Value both = xk::LdMatrixOp::create(
          b, loc, fragment, bb->first,
          add(bb->second, bOffsets[pair * ksteps + ks]), !bTransposed);
      bFrag.push_back(lanesOf(both, first, half));
      bFrag.push_back(lanesOf(both, second, half));
    }
    for (int64_t tm = 0; tm < tms; ++tm)
      for (int64_t tn = 0; tn < tns; ++tn) {
        MutableArrayRef<Value> c =
            MutableArrayRef<Value>(slots).slice((tm * tns + tn) * 4, 4);
        Value d = xk::MmaOp::create(
            b, loc, quad, aFrag[tm], bFrag[tn],
            vector::FromElementsOp::create(b, loc, quad, c));
        for (int64_t i = 0; i < 4; ++i)
          c[i] = vector::ExtractOp::create(b, loc, d, i);
      }
  }
  remember(op.getResult(), cs, slots);
  return success();
}
