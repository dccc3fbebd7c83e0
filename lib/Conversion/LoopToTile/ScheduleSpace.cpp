//===- ScheduleSpace.cpp - the candidate schedules of a kernel ------------===//
//
// Row kernels: a fold strategy, warps and a vector width per program; a
// loop over chunks for rows longer than a program holds; a split of each
// row over several programs when rows are few. Contractions: block sizes,
// pipeline depth and warps. Candidates the target cannot run are never
// proposed.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/CostModel.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile;
namespace xt = xtile::tile;

/// The most programs a split launches per SM: beyond a few waves the
/// partial results cost more than the parallelism gains.
static constexpr int64_t kSplitProgramsPerSm = 16;
/// The longest row one program holds at once (16 warps, 8 elements per
/// thread); longer rows are processed in chunks.
static constexpr int64_t kLongestTile = 4096;

static SmallVector<xt::ScheduleAttrInterface>
rowCandidates(MLIRContext *ctx, const RowFacts &k, xt::TargetAttr target) {
  SmallVector<xt::ScheduleAttrInterface> out;
  auto add = [&](xt::FoldStrategy strategy, int64_t warps, int64_t vector,
                 int64_t chunk = 0, int64_t ways = 0) {
    out.push_back(
        xt::RowScheduleAttr::get(ctx, strategy, warps, vector, chunk, ways));
  };
  // A column reduction read down its columns: blocks of adjacent rows per
  // program, coalesced along the rows, each fold stepping down the columns
  // in [chunk, block] tiles (chunk at most the fold's length, rounded up).
  if (k.columnKernel && !k.contiguous) {
    int64_t rows = int64_t(llvm::PowerOf2Ceil(k.innerRows));
    int64_t length = int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(1, k.columns)));
    for (int64_t warps : {2, 4, 8})
      for (int64_t vector : {1, 2, 4, 8}) {
        if (vector * k.elementBytes > 16 || k.innerRows % vector)
          continue;
        for (int64_t block : {32, 64, 128, 256}) {
          if (block > std::max<int64_t>(32, rows) || block < vector)
            continue;
          for (int64_t chunk : {2, 4, 8, 16, 32, 64, 128, 256}) {
            int64_t share = chunk * block / (32 * warps);
            if (chunk > length || share < vector || share > 32)
              continue;
            out.push_back(
                xt::ColumnScheduleAttr::get(ctx, warps, vector, block, chunk, 1));
            // Fewer blocks of rows than SMs: each fold's length split
            // over ways, each at least a chunk (legal at every length of a
            // dynamic one: a way past the end folds none).
            int64_t programs =
                k.programs / std::max<int64_t>(1, k.innerRows) *
                llvm::divideCeil(k.innerRows, block);
            if (!k.splittable || programs >= target.getSms() || chunk < 16)
              continue;
            for (int64_t ways : {2, 4, 8, 16, 32, 64}) {
              if (programs * ways > kSplitProgramsPerSm * target.getSms() ||
                  (!k.dynamicColumns &&
                   int64_t(llvm::divideCeil(k.columns, ways)) < chunk))
                continue;
              out.push_back(xt::ColumnScheduleAttr::get(ctx, warps, vector,
                                                        block, chunk, ways));
            }
          }
        }
      }
  }
  // A row of a dynamic length: loops over chunks of it, each masked
  // against the length (scalar accesses: the length's alignment is not
  // known).
  if (k.dynamicColumns) {
    for (int64_t chunk : {128, 256, 512, 1024, 2048, 4096})
      for (int64_t warps : {1, 2, 4, 8, 16})
        if (chunk >= 32 * warps && chunk <= 32 * warps * 8)
          add(warps == 1 ? xt::FoldStrategy::warp : xt::FoldStrategy::block,
              warps, 1, chunk);
    // Few rows, long ones: each split over ways at run time, every way's
    // share a loop over chunks of it (legal at every length: a way past
    // the end folds nothing). Priced at the length's hint, and across its
    // range by the buckets.
    if (k.splittable)
      for (int64_t ways : {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
        for (int64_t warps : {4, 8})
          for (int64_t chunk : {1024, 2048}) {
            if (k.programs * ways > kSplitProgramsPerSm * target.getSms() ||
                int64_t(llvm::divideCeil(k.columns, ways)) < chunk ||
                chunk > 32 * warps * 8)
              continue;
            add(xt::FoldStrategy::split, warps, 1, chunk, ways);
          }
    return out;
  }
  // One thread doing the whole row.
  add(xt::FoldStrategy::serial, 1, 1);
  if (k.columns == 0)
    return out;
  auto vectorOk = [&](int64_t vector) {
    return vector * k.elementBytes <= 16 && k.columns % vector == 0 &&
           (vector == 1 || k.contiguous);
  };
  for (int64_t warps : {1, 2, 4, 8, 16}) {
    for (int64_t vector : {1, 2, 4, 8}) {
      if (!vectorOk(vector))
        continue;
      if (vector > 1 && k.tile < 32 * warps * vector)
        continue;
      if (warps > 1 && k.tile < 32 * warps)
        continue;
      add(warps == 1 ? xt::FoldStrategy::warp : xt::FoldStrategy::block, warps,
          vector);
    }
  }
  // Few rows, long ones: split each row over several programs.
  if (k.splittable)
    for (int64_t ways : {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
      for (int64_t warps : {4, 8})
        for (int64_t vector : {1, 4}) {
          int64_t slice = llvm::divideCeil(k.columns, ways);
          if (slice < 1024 ||
              k.programs * ways > kSplitProgramsPerSm * target.getSms() ||
              !vectorOk(vector) || slice % vector ||
              int64_t(llvm::PowerOf2Ceil(slice)) > kLongestTile)
            continue;
          add(xt::FoldStrategy::split, warps, vector, 0, ways);
        }
  // Rows longer than the largest program holds: a loop over chunks.
  for (int64_t chunk : {1024, 2048, 4096}) {
    if (k.tile <= kLongestTile)
      break;
    for (int64_t warps : {4, 8, 16})
      for (int64_t vector : {1, 4}) {
        if (!vectorOk(vector) || chunk < 32 * warps * vector)
          continue;
        add(xt::FoldStrategy::block, warps, vector, chunk);
      }
  }
  return out;
}

/// Whether a dot schedule's tiles suit the problem: no block larger than
/// the padded problem, beyond the smallest block of each kind of schedule
/// (`smallestMN`, `smallestK`), and no pipeline deeper than the K loop;
/// block-scaled, K steps within the scales' blocks.
static bool fitsProblem(const DotFacts &f, int64_t bm, int64_t bn,
                        int64_t bk, int64_t stages, int64_t smallestMN,
                        int64_t smallestK) {
  auto within = [](int64_t block, int64_t extent, int64_t smallest) {
    return block <= smallest || block <= int64_t(llvm::PowerOf2Ceil(extent));
  };
  if (f.scaleBlock && f.scaleBlock % bk)
    return false;
  return within(bm, f.m, smallestMN) && within(bn, f.n, smallestMN) &&
         within(bk, f.k, smallestK) &&
         stages <= static_cast<int64_t>(llvm::divideCeil(f.k, bk));
}

/// Tensor-core schedules: warp sub-tiles of 16 to 64 rows and columns,
/// output tiles up to 256 x 256, K steps of 32 to 128 (the longest for
/// small tiles: a weight-bound M = 16 keeps enough bytes in flight), 2 to
/// 4 stages; on f32 operands with `tf32`.
static void mmaSyncCandidates(MLIRContext *ctx, const DotFacts &f, bool tf32,
                              SmallVector<xt::ScheduleAttrInterface> &out) {
  for (int64_t bm : {16, 32, 64, 128, 256})
    for (int64_t bn : {16, 32, 64, 128, 256})
      for (int64_t bk : {32, 64, 128})
        for (int64_t stages : {2, 3, 4})
          for (int64_t warps : {4, 8})
            for (int64_t warpsM : {1, 2, 4, 8}) {
              if (warps % warpsM)
                continue;
              int64_t wm = bm / warpsM, wn = bn / (warps / warpsM);
              if (wm < 16 || wm > 64 || wn < 16 || wn > 64 || wm % 16 ||
                  wn % 16)
                continue;
              if (!fitsProblem(f, bm, bn, bk, stages, 16, 32))
                continue;
              // An operand tile of the accumulator's shape would share its
              // fragment layout (narrow copies): not a candidate.
              if (bk == bm || bk == bn)
                continue;
              // fp8 fragments become f16 ones in registers on sm_90 (ptxas
              // converts them for HMMA): at most 64 accumulators a thread
              // (128 spill at 255 registers), and a K step's fragments of
              // at most 128 x 64 (ptxas spills 32 x 256 x 128 tiles).
              // (Block-scaled: the block's sum and the total.)
              int64_t sets = f.scaleBlock ? 2 : 1;
              if (f.fp8Operands && (bm * bn * sets > 64 * 32 * warps ||
                                    bk * (wm + wn) > 128 * 64))
                continue;
              // 128 accumulators a thread beside a 128-deep K step's
              // fragments spill under ptxas where the step's indices are
              // computed from per-program values (a grouped GEMM's down
              // projection at 64 x 256 x 128).
              if (f.programScalars && bm * bn >= 128 * 32 * warps && bk >= 128)
                continue;
              out.push_back(xt::DotScheduleAttr::get(
                  ctx, bm, bn, bk, stages, warps,
                  xt::DotInstruction::mma_sync, warpsM, tf32, 1,
                  /*warpSpecialized=*/false));
            }
}

/// Warpgroup schedules (sm_90a) on operands of `bytes` bytes (1: fp8, 2:
/// f16 or bf16, 4: f32 as tf32): 1 or 2 warpgroups of 64 rows, or of 128
/// rows (two blocks of 64) with block_n up to 128 (128 accumulators per
/// thread), block_n of 64 to 256, K steps of 128 bytes (128 fp8, 64
/// 16-bit, 32 f32 elements), 2 to 4 stages; only where
/// B is contiguous along K (x W^T) or, 16-bit only, along N (x W) in
/// memory, which the copies can stage as wgmma reads it (K-major, or
/// N-major in 64-column panels). With 3 or 4 stages on 16-bit and fp8
/// operands (brought in by TMA), also warp-specialized: a producer
/// warpgroup beside the warps.
static void wgmmaCandidates(MLIRContext *ctx, const DotFacts &f,
                            int64_t bytes,
                            SmallVector<xt::ScheduleAttrInterface> &out) {
  bool tf32 = bytes == 4;
  // tf32 and fp8 operands are read K-major only.
  if (!f.rhsKMajor && (bytes != 2 || !f.rhsNMajor))
    return;
  int64_t bk = 128 / bytes;
  for (int64_t warps : {4, 8})
    for (int64_t rows : {16, 32})
      for (int64_t bn : {64, 128, 256})
        for (int64_t stages : {2, 3, 4}) {
          int64_t bm = rows * warps;
          if (bm * bn / (32 * warps) * (f.scaleBlock ? 2 : 1) > 128 ||
              !fitsProblem(f, bm, bn, bk, stages, 64, bk))
            continue;
          for (bool specialized : {false, true}) {
            if (specialized && (tf32 || stages < 3))
              continue;
            out.push_back(xt::DotScheduleAttr::get(
                ctx, bm, bn, bk, stages, warps, xt::DotInstruction::wgmma,
                warps, tf32, 1, specialized));
          }
        }
}

static SmallVector<xt::ScheduleAttrInterface>
dotCandidates(MLIRContext *ctx, const DotFacts &f, xt::TargetAttr target,
              bool allowTf32) {
  SmallVector<xt::ScheduleAttrInterface> out;
  if (f.attention) {
    // Blocks of query rows (one row for a decode step), the head dimension
    // in one tile, keys in blocks of 32 or 64 (FMA pipes); the operand
    // tiles staged in shared memory (queries, keys, probabilities, values)
    // within 160 KiB, and in registers (each thread's share of a staged
    // tile passes through its registers, beside its accumulators, scores
    // and probabilities) within 96 by this count, which ptxas's allocation
    // of the unrolled dots can double: no spills.
    int64_t bn = int64_t(llvm::PowerOf2Ceil(f.n));
    int64_t dk = int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(f.scoreK, 1)));
    SmallVector<int64_t> bms;
    if (f.m < 16)
      bms.push_back(1);
    // A decode step's grouped query heads in one program, K/V read once
    // per group.
    if (f.group > 1)
      bms.push_back(int64_t(llvm::PowerOf2Ceil(f.group * f.m)));
    for (int64_t bm : {16, 32, 64})
      if (f.m >= 16 && (bm == 16 || bm <= int64_t(llvm::PowerOf2Ceil(f.m))))
        bms.push_back(bm);
    // Beyond the register count, the candidates that need the fewest are
    // kept (a head dimension of 256 over many rows): spilling is legal.
    SmallVector<std::pair<int64_t, xt::ScheduleAttrInterface>> over;
    // Each candidate with K and V tiles copied one block ahead (2 stages)
    // or not; and, with too few programs to fill the device (a decode
    // step), its keys split over 2 to 64 ways, each at least four key
    // blocks, up to four programs per SM.
    auto addWays = [&](int64_t bm, int64_t bk, int64_t warps,
                       xt::DotInstruction instruction, int64_t warpsM,
                       int64_t registers, int64_t limit) {
      int64_t programs = f.rowPrograms(bm);
      int64_t blocks = llvm::divideCeil(f.k, bk);
      for (int64_t ways : {1, 2, 4, 8, 16, 32, 64})
        for (int64_t stages : {1, 2}) {
          // Over a dynamic number of keys, each way's share is computed at
          // run time: every number of ways is legal at every size, and the
          // cost model (per bucket of the size) judges how many pay.
          if (ways > 1 && (programs >= target.getSms() ||
                           (4 * ways > blocks && !f.dynamicKeys) ||
                           programs * ways > 4 * target.getSms() ||
                           f.dynamicRows || f.dynamicBatch))
            continue;
          if (stages > blocks)
            continue;
          auto schedule = xt::DotScheduleAttr::get(
              ctx, bm, bn, bk, stages, warps, instruction, warpsM,
              /*tf32=*/false, ways, /*warpSpecialized=*/false);
          // Copies one block ahead hold their addresses and predicates.
          int64_t count = registers + (stages - 1) * 4;
          if (count > limit)
            over.push_back({count, schedule});
          else
            out.push_back(schedule);
        }
    };
    for (int64_t bm : bms)
      for (int64_t bk : {32, 64})
        for (int64_t warps : {1, 2, 4, 8, 16}) {
          int64_t threads = 32 * warps;
          int64_t bytes = 4 * (bm * dk + dk * bk + bm * bk + bk * bn);
          int64_t registers =
              40 + llvm::divideCeil(std::max(dk * bk, bk * bn), threads) +
              llvm::divideCeil(bm * dk, threads) +
              llvm::divideCeil(bm * bn, threads) +
              3 * llvm::divideCeil(bm * bk, threads);
          if (!fitsProblem(f, bm, bn, bk, 1, 64, 32) || bytes > 160 * 1024 ||
              (warps > 1 && bm * bn < threads))
            continue;
          // 512 threads get at most 128 registers each: a lower count.
          addWays(bm, bk, warps, xt::DotInstruction::fma, 1, registers,
                  threads >= 512 ? 80 : 96);
        }
    // Tensor cores (16-bit queries, keys and values; sm_80 and later): both
    // dots on mma.sync, warps_m warps down the rows (16 to 64 each) and the
    // rest across the scores' and the output's columns in whole 16-column
    // blocks. Registers: 64, and 4 per element of each thread's share of
    // the scores and output accumulators (the probabilities, fragments and
    // the unrolled steps' values beside them), within 228 by this count:
    // ptxas fits the test and bench kernels within 255 without spilling
    // where the count is below it, and spills where it is above.
    if (f.tensorCoreOperands && xt::hasMmaSync(target)) {
      SmallVector<int64_t> mmaBms;
      if (f.m < 16)
        mmaBms.push_back(int64_t(
            llvm::PowerOf2Ceil(std::max<int64_t>(16, f.group * f.m))));
      for (int64_t bm : {16, 32, 64, 128})
        if (f.m >= 16 &&
            (bm == 16 || bm <= int64_t(llvm::PowerOf2Ceil(f.m))))
          mmaBms.push_back(bm);
      for (int64_t bm : mmaBms)
        for (int64_t bk : {32, 64, 128})
          for (int64_t warps : {1, 2, 4, 8})
            for (int64_t warpsM : {1, 2, 4, 8}) {
              int64_t warpsN = warps / warpsM, threads = 32 * warps;
              if (warps % warpsM || bm % (16 * warpsM) ||
                  bm / warpsM > 64 || bn % (16 * warpsN) ||
                  bk % (16 * warpsN) || !fitsProblem(f, bm, bn, bk, 1, 64, 32))
                continue;
              int64_t bytes = 2 * (bm * dk + dk * bk + bm * bk + bk * bn);
              int64_t registers =
                  64 + 4 * llvm::divideCeil(bm * bk + bm * bn, threads);
              if (bytes > 160 * 1024)
                continue;
              addWays(bm, bk, warps, xt::DotInstruction::mma_sync, warpsM,
                      registers, 228);
            }
    }
    if (out.empty() && !over.empty()) {
      llvm::sort(over, [](const auto &a, const auto &b) {
        return a.first < b.first;
      });
      for (auto &[registers, schedule] : over)
        if (registers == over.front().first)
          out.push_back(schedule);
    }
    return out;
  }
  if ((f.tensorCoreOperands && xt::hasMmaSync(target)) ||
      (f.fp8Operands && xt::hasFp8MmaSync(target)))
    mmaSyncCandidates(ctx, f, /*tf32=*/false, out);
  if (allowTf32 && f.f32Operands && xt::hasMmaSync(target))
    mmaSyncCandidates(ctx, f, /*tf32=*/true, out);
  if (f.tensorCoreOperands && xt::hasWgmma(target))
    wgmmaCandidates(ctx, f, /*bytes=*/2, out);
  if (f.fp8Operands && xt::hasWgmma(target))
    wgmmaCandidates(ctx, f, /*bytes=*/1, out);
  if (allowTf32 && f.f32Operands && xt::hasWgmma(target))
    wgmmaCandidates(ctx, f, /*bytes=*/4, out);
  for (int64_t bm : {32, 64, 128})
    for (int64_t bn : {32, 64, 128})
      for (int64_t bk : {32, 64})
        for (int64_t stages : {1, 2, 3, 4})
          for (int64_t warps : {4, 8}) {
            if (!fitsProblem(f, bm, bn, bk, stages, 32, 32))
              continue;
            // At least four accumulators per thread.
            if (bm * bn / (32 * warps) < 4)
              continue;
            out.push_back(
                xt::DotScheduleAttr::get(ctx, bm, bn, bk, stages, warps,
                                         xt::DotInstruction::fma, 1,
                                         /*tf32=*/false, 1,
                                         /*warpSpecialized=*/false));
          }
  return out;
}

SmallVector<xt::ScheduleAttrInterface>
xtile::enumerateSchedules(MLIRContext *ctx, const KernelFacts &facts,
                          xt::TargetAttr target, bool allowTf32) {
  SmallVector<xt::ScheduleAttrInterface> all =
      facts.contraction ? dotCandidates(ctx, facts.dot, target, allowTf32)
                        : rowCandidates(ctx, facts.row, target);
  xt::ScheduleShape shape = facts.shape();
  SmallVector<xt::ScheduleAttrInterface> fit, spill;
  for (xt::ScheduleAttrInterface s : all) {
    xt::ScheduleNeeds needs = s.getNeeds(shape);
    if (xt::fitsTarget(needs, target)) {
      fit.push_back(s);
      continue;
    }
    // Registers are an estimate and spilling is legal: such candidates are
    // kept only when nothing fits.
    needs.registersPerThread = 0;
    if (xt::fitsTarget(needs, target))
      spill.push_back(s);
  }
  return fit.empty() ? spill : fit;
}
