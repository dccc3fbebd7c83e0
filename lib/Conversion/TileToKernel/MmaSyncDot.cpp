//===- MmaSyncDot.cpp - Dots on tensor cores (mma.sync) -------------------===//
//
// A dot whose schedule says `instruction = mma_sync`: operand tiles staged
// in shared memory (swizzled in 16-byte chunks, see sharedOffset), read
// into fragments and multiplied with mma.sync into f32 accumulators:
// m16n8k16 on f16/bf16 operands, m16n8k32 on fp8 (K-major operands only),
// m16n8k8 on f32 operands rounded to tf32 (`tf32 = true`).
//
// The warps form a warps_m x warps_n grid over the [block_m, block_n]
// output tile; warp (wm, wn) owns a WM x WN sub-tile of TM x TN blocks of
// 16 x 8, and its lanes hold the C fragments of those blocks (the
// accumulator layout, Coordinates.cpp). Per step of the instruction's K, the
// warp loads TM fragments of A (16 x K each) and TN / 2 pairs of B
// fragments (K x 16, two 16 x 8 blocks), then issues TM x TN mma. A
// fragment is one ldmatrix.x4 (four 8 x 16-byte matrices): with `.trans`
// where a 16-bit tile is staged with its K dimension across rows, without
// where K runs along rows (A [m][k], B staged [n][k] as PyTorch's weights
// are stored). ldmatrix cannot transpose 32-bit elements: an f32 tile
// staged the other way is read element by element.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "OpLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "xtile/Support/Storage.h"

#include <numeric>

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
  // K per step: 16 (16-bit; tf32 as two k8), 32 for fp8.
  bool fp8 = isFp8(element);
  int64_t step = fp8 ? 32 : 16;
  if (k % step)
    return op.emitOpError("mma.sync steps K by ")
           << step << "; the operand tile has " << k << " columns";
  // fp8 tiles are read K-major (ldmatrix transposes 16-bit elements
  // only): A row by row, B column by column.
  FailureOr<DotOperands> staged =
      stageDot(op, fp8 ? std::optional<bool>(false) : std::nullopt,
               fp8 ? std::optional<bool>(true) : std::nullopt);
  if (failed(staged))
    return failure();
  std::pair<Value, Value> *a = &staged->lhs, *bb = &staged->rhs;
  int cs = staged->accumulator;
  SmallVector<Value> &slots = staged->slots;

  // tf32: m16n8k8 on f32 (4 elements per 16-byte row of an ldmatrix
  // matrix); else m16n8k16 on 16-bit elements (8 per row).
  bool tf32 = element.isF32();
  int64_t chunk = 16 / getElementBytes(element), kStep = 2 * chunk;
  int64_t warpsN = layouts.numWarps() / layouts.dotSchedule().getWarpsM();
  auto accType = cast<RankedTensorType>(op.getAcc().getType());
  int64_t wmSize = layouts.dotSchedule().getWarpTileM();
  int64_t wnSize = accType.getDimSize(1) / warpsN;
  int64_t tms = wmSize / 16, tns = wnSize / 8, ksteps = k / kStep;

  // Where each lane's ldmatrix rows start in the tiles: lane l gives row
  // j = l % 8 of matrix q = l / 8. For A the four matrices are rows 0-7 /
  // 8-15 (q % 2) by the first / second half of K (q / 2) of a 16 x K
  // block of [m][k]; for B the first / second half of K (q % 2) by
  // columns (n) 0-7 / 8-15 (q / 2). A tile staged row by row gives its
  // rows to ldmatrix; one staged column by column (transposed) its
  // columns, and the fragment comes out right with `trans` for A and
  // without for B. These depend on the lane only: computed once per
  // thread. Where ldmatrix cannot read a tile (f32 staged the other way),
  // each lane reads its elements: A[g + 8 (i % 2)][t + 4 (i / 2)] and
  // B[t + 4 i][g], g = lane / 4, t = lane % 4.
  bool aTransposed = stagedTransposed.contains(op.getLhs());
  bool bTransposed = stagedTransposed.contains(op.getRhs());
  // Copies pipelined in the other orientation (where the operand is not
  // K-major in memory, which the schedule space does not propose).
  if (fp8 && (aTransposed || !bTransposed))
    return op.emitOpError("mma.sync reads fp8 operands K-major only; the ")
           << (aTransposed ? "lhs" : "rhs") << " tile is staged with K "
           << "across rows";
  bool aLdmatrix = !tf32 || !aTransposed, bLdmatrix = !tf32 || bTransposed;
  SmallVector<Value> aOffsets, bOffsets; // [tm][ks], [pair][ks]
  Value aRow0, bCol0, g, t;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ix.prelude);
    Value q = div(lane, 8), j = rem(lane, 8);
    Value zero = cst(0);
    aRow0 = mul(div(warp, warpsN), cst(wmSize));
    bCol0 = mul(rem(warp, warpsN), cst(wnSize));
    g = div(lane, 4);
    t = rem(lane, 4);
    Value aRow = add(add(aRow0, mul(rem(q, 2), cst(8))),
                     aTransposed ? zero : j);
    Value aCol = add(mul(div(q, 2), cst(chunk)), aTransposed ? j : zero);
    for (int64_t tm = 0; aLdmatrix && tm < tms; ++tm)
      for (int64_t ks = 0; ks < ksteps; ++ks)
        aOffsets.push_back(sharedOffset(
            lhsType, add(aRow, cst(16 * tm)), add(aCol, cst(kStep * ks)),
            /*reading=*/true, aTransposed));
    Value bRow = add(mul(rem(q, 2), cst(chunk)), bTransposed ? zero : j);
    Value bCol = add(add(bCol0, mul(div(q, 2), cst(8))),
                     bTransposed ? j : zero);
    for (int64_t pair = 0; bLdmatrix && pair < tns / 2; ++pair)
      for (int64_t ks = 0; ks < ksteps; ++ks)
        bOffsets.push_back(sharedOffset(
            rhsType, add(bRow, cst(kStep * ks)), add(bCol, cst(16 * pair)),
            /*reading=*/true, bTransposed));
  }

  // A fragment holds 4 registers of A and B 2 (16-bit pairs or tf32).
  int64_t perRegister = 4 / getElementBytes(element);
  auto aType = VectorType::get({4 * perRegister}, element);
  auto bType = VectorType::get({2 * perRegister}, element);
  auto quad = VectorType::get({4}, b.getF32Type());
  auto lanesOf = [&](Value v, ArrayRef<int64_t> positions, VectorType type) {
    SmallVector<Value> lanes;
    for (int64_t p : positions) {
      Value x = vector::ExtractOp::create(b, loc, v, p);
      lanes.push_back(tf32 ? (Value)xk::RoundTf32Op::create(b, loc, x) : x);
    }
    return (Value)vector::FromElementsOp::create(b, loc, type, lanes);
  };
  auto elementsOf = [&](Value buffer, Value base, RankedTensorType type,
                        bool transposed,
                        ArrayRef<std::pair<Value, Value>> coords,
                        VectorType fragment) {
    SmallVector<Value> lanes;
    for (auto [row, col] : coords)
      lanes.push_back(xk::RoundTf32Op::create(
          b, loc,
          xk::LoadOp::create(b, loc, element, buffer,
                             add(base, sharedOffset(type, row, col,
                                                    /*reading=*/true,
                                                    transposed)))));
    return (Value)vector::FromElementsOp::create(b, loc, fragment, lanes);
  };
  // The B registers of the first 16 x 8 block, then the second (a
  // mutation test swaps a block's two registers, the two halves of K).
  bool mutate = overrides.swapBFragmentRegisters();
  SmallVector<int64_t> first, second;
  for (int64_t i = 0; i < 2 * perRegister; ++i) {
    first.push_back(mutate ? (i + perRegister) % (2 * perRegister) : i);
    second.push_back(2 * perRegister + i);
  }
  SmallVector<int64_t> all(4 * perRegister);
  std::iota(all.begin(), all.end(), 0);
  auto fragmentType = VectorType::get({4 * perRegister}, element);
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    SmallVector<Value> aFrag, bFrag;
    for (int64_t tm = 0; tm < tms; ++tm) {
      if (aLdmatrix) {
        Value v = xk::LdMatrixOp::create(
            b, loc, fragmentType, a->first,
            add(a->second, aOffsets[tm * ksteps + ks]), aTransposed);
        aFrag.push_back(tf32 ? lanesOf(v, all, aType) : v);
        continue;
      }
      Value row = add(aRow0, add(g, cst(16 * tm)));
      Value col = add(t, cst(kStep * ks));
      aFrag.push_back(elementsOf(a->first, a->second, lhsType, aTransposed,
                                 {{row, col},
                                  {add(row, cst(8)), col},
                                  {row, add(col, cst(4))},
                                  {add(row, cst(8)), add(col, cst(4))}},
                                 aType));
    }
    for (int64_t pair = 0; pair < tns / 2; ++pair) {
      if (bLdmatrix) {
        Value both = xk::LdMatrixOp::create(
            b, loc, fragmentType, bb->first,
            add(bb->second, bOffsets[pair * ksteps + ks]), !bTransposed);
        bFrag.push_back(lanesOf(both, first, bType));
        bFrag.push_back(lanesOf(both, second, bType));
        continue;
      }
      for (int64_t half = 0; half < 2; ++half) {
        Value row = add(t, cst(kStep * ks));
        Value col = add(bCol0, add(g, cst(16 * pair + 8 * half)));
        std::pair<Value, Value> k0{row, col}, k4{add(row, cst(4)), col};
        bool swap = mutate && half == 0;
        bFrag.push_back(elementsOf(bb->first, bb->second, rhsType,
                                   bTransposed,
                                   {swap ? k4 : k0, swap ? k0 : k4}, bType));
      }
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

//===----------------------------------------------------------------------===//
// The family's lowering
//===----------------------------------------------------------------------===//

void xtile::tiletokernel::populateMmaSyncDotLowerings(
    OpLoweringSet &set, const TargetInfo &target) {
  if (target.hasMmaSync())
    set.add<DotLowering>(xt::DotInstruction::mma_sync,
                         &KernelLowering::lowerMmaSyncDot);
}
