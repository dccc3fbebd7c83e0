//===- CostModel.cpp - the analytic cost model ----------------------------===//
//
// Prices a schedule from the kernel's facts and the target's fields. Row
// kernels: the slower of device-memory time (slowed when the grid cannot
// keep enough bytes in flight) and the time to issue the body's
// instructions, plus reduction steps per wave, memory instructions issued
// and launch.
// Contractions: the slower of the work on the instructions the schedule
// runs (FMA or tensor cores, fed from shared memory) and the operand
// traffic from device memory (panels shared through L2 by a wave's tiles,
// slowed when the pipelines keep too few bytes in flight), times the tail
// of the last wave.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/CostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace xtile;
namespace xt = xtile::tile;

CostModel::~CostModel() = default;

/// What a launch costs the host and the GPU, about 3 us with the driver API
/// (NVIDIA's CUDA C++ Best Practices Guide, "Kernel launch overhead").
static constexpr double kLaunchMicros = 3.0;
/// One reduction step (a shuffle, a barrier or a serial element) and one
/// memory instruction issued, per thread: tens of cycles and a few cycles
/// at ~1.7 GHz.
static constexpr double kStepMicros = 0.02, kIssueMicros = 0.002;
/// Thread-instructions an SM issues per cycle (4 schedulers of 32 lanes)
/// and special-function operations (16 MUFU lanes) on sm_80 and sm_90
/// (CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table).
static constexpr double kIssuePerCycle = 128, kSpecialPerCycle = 16;

/// Programs of `threads` threads resident at once on one SM, each using
/// `registers` registers per thread and `shared` bytes of shared memory.
static int64_t residentPerSm(xt::TargetAttr target, int64_t threads,
                             int64_t registers, int64_t shared) {
  int64_t perSm = std::min(target.getMaxBlocksPerSm(),
                           target.getMaxThreadsPerSm() / threads);
  perSm = std::min(perSm, target.getRegisters() /
                              (std::max<int64_t>(1, registers) * threads));
  if (shared)
    perSm = std::min(perSm, target.getSharedMemory() / shared);
  return std::max<int64_t>(1, perSm);
}

static Estimate estimateRow(const RowFacts &k, xt::RowScheduleAttr s,
                            xt::TargetAttr target) {
  if (s.getWays()) {
    // Two kernels over programs x ways programs, each on a slice of a row;
    // the second, where it has an elementwise loop, re-reads the row
    // (from L2 when it fits) after combining the partial results.
    RowFacts slice = k;
    slice.programs = k.programs * s.getWays();
    slice.columns = llvm::divideCeil(k.columns, s.getWays());
    slice.tile = int64_t(llvm::PowerOf2Ceil(slice.columns));
    bool elementwise = k.passes > k.folds;
    slice.bytes = k.bytes + (elementwise ? k.rowBytes * k.programs : 0);
    // With chunks, each pass of the first kernel's folds over a slice
    // rereads that slice (the second kernel's pass is counted above).
    slice.passes = std::max<int64_t>(1, k.passes - (elementwise ? 1 : 0));
    slice.rowBytes = llvm::divideCeil(k.rowBytes, s.getWays());
    auto inner = xt::RowScheduleAttr::get(s.getContext(),
                                          xt::FoldStrategy::block, s.getWarps(),
                                          s.getVector(), s.getChunk(), 0);
    Estimate one = estimateRow(slice, inner, target);
    one.micros += kLaunchMicros;
    one.why += ", 2 kernels";
    return one;
  }
  int64_t threads = 32 * s.getWarps();
  int64_t perThread = llvm::divideCeil(k.tile, threads);
  int64_t registers = s.getNeeds(k.shape()).registersPerThread;
  bool spills = registers > target.getMaxRegistersPerThread();
  int64_t perSM = residentPerSm(
      target, threads, std::min(registers, target.getMaxRegistersPerThread()),
      0);
  int64_t resident = std::min(k.programs, target.getSms() * perSM);
  double bytesPerMicro = target.getBandwidth() * 1e3; // GB/s -> B/us
  double latencyMicros = target.getMemoryLatency() * 1e-3;
  double inFlight = double(resident) * threads * s.getVector() *
                    k.elementBytes * std::max<int64_t>(1, k.streams);
  double fraction = std::min(1.0, inFlight / (bytesPerMicro * latencyMicros));
  double bytes = k.bytes;
  // In chunks, each pass over the row (each fold, then the elementwise
  // loop) reads it again; from L2 while the resident rows fit, else from
  // device memory.
  double rereads =
      s.getChunk() ? double(k.passes - 1) * k.rowBytes * k.programs : 0.0;
  bool rereadsFromL2 = double(resident) * k.rowBytes <= target.getL2() / 2;
  if (!rereadsFromL2)
    bytes += rereads;
  double memory = bytes / (bytesPerMicro * fraction);
  // Read down a non-last dimension, each element a thread loads is its
  // own 32-byte sector, which neighbouring programs' loads share through
  // L2 at best: that many more bytes from L2.
  if (k.stridedBytes)
    memory += double(k.stridedBytes) * (32.0 / k.elementBytes - 1) /
              (target.getL2Bandwidth() * 1e3);
  if (rereadsFromL2)
    memory += rereads / (target.getL2Bandwidth() * 1e3);
  // A spilling thread goes to local memory (through L1 and L2) for its
  // tile elements: about four times the traffic.
  constexpr double kSpillTraffic = 4;
  if (spills)
    memory *= kSpillTraffic;
  double waves = std::ceil(double(k.programs) / (target.getSms() * perSM));
  // Butterfly shuffles over a warp: log2(32) = 5 steps; a block adds a
  // barrier, a step per level over the warps and a broadcast.
  double steps = 0;
  switch (s.getStrategy()) {
  case xt::FoldStrategy::serial:
    steps = k.tile;
    break;
  case xt::FoldStrategy::warp:
  case xt::FoldStrategy::split:
    steps = perThread + 5;
    break;
  case xt::FoldStrategy::block:
    steps = perThread + 5 + llvm::Log2_64(s.getWarps()) + 2;
    break;
  }
  double reduce = k.folds * steps * kStepMicros * waves;
  // Issuing memory instructions: fewer, wider accesses are cheaper.
  double issue = double(perThread) / s.getVector() *
                 std::max<int64_t>(1, k.streams) * waves * kIssueMicros;
  // Issuing the arithmetic: every element slot of every program (masked
  // lanes too) runs the body's instructions; each SM issues 128
  // thread-instructions and 16 special-function operations per cycle.
  double slots = double(k.programs) * threads * perThread;
  double busySms = std::min<double>(target.getSms(), k.programs);
  double perMicro = busySms * target.getClockMhz();
  double compute =
      std::max(slots * k.instructions / (perMicro * kIssuePerCycle),
               slots * k.specialFunctions / (perMicro * kSpecialPerCycle));
  Estimate e;
  e.micros = kLaunchMicros + std::max(memory, compute) + reduce + issue;
  e.memoryMicros = memory;
  e.computeMicros = compute;
  llvm::raw_string_ostream os(e.why);
  os << llvm::format("%.0f%% of bandwidth in flight, %.0f wave(s), ",
                     100 * fraction, waves)
     << perThread << " element(s)/thread"
     << llvm::format(", issue %.0f%% of memory time",
                     memory > 0 ? 100 * compute / memory : 0.0)
     << (spills ? ", spills" : "");
  return e;
}

/// A column reduction: programs over blocks of adjacent rows, stepping
/// down the fold's length in [chunk, block] tiles combined in registers,
/// one fold across the threads at the end.
static Estimate estimateColumn(const RowFacts &k, xt::ColumnScheduleAttr s,
                               xt::TargetAttr target) {
  int64_t threads = 32 * s.getWarps(), ways = s.getWays();
  int64_t outer = k.programs / std::max<int64_t>(1, k.innerRows);
  int64_t programs =
      outer * llvm::divideCeil(k.innerRows, s.getBlock()) * ways;
  int64_t steps = llvm::divideCeil(std::max<int64_t>(1, k.columns),
                                   s.getChunk() * ways);
  int64_t share = s.getChunk() * s.getBlock() / threads;
  int64_t registers = s.getNeeds(k.shape()).registersPerThread;
  int64_t perSM = residentPerSm(
      target, threads, std::min(registers, target.getMaxRegistersPerThread()),
      s.getNeeds(k.shape()).sharedMemory);
  int64_t resident = std::min(programs, target.getSms() * perSM);
  double bytesPerMicro = target.getBandwidth() * 1e3;
  double latencyMicros = target.getMemoryLatency() * 1e-3;
  double inFlight = double(resident) * s.getChunk() * s.getBlock() *
                    k.elementBytes * std::max<int64_t>(1, k.streams);
  double fraction = std::min(1.0, inFlight / (bytesPerMicro * latencyMicros));
  double memory = k.bytes / (bytesPerMicro * fraction);
  // Each pass after the first (a fold using another's result, an
  // elementwise loop) reads the block's columns again: from L2 while the
  // resident blocks' columns fit in half of it.
  double rereads = double(k.passes - 1) * k.rowBytes * k.programs;
  double residentBytes =
      double(resident) * s.getBlock() * k.rowBytes / double(ways);
  if (residentBytes <= target.getL2() / 2)
    memory += rereads / (target.getL2Bandwidth() * 1e3);
  else
    memory += rereads / (bytesPerMicro * fraction);
  // Split: each fold's partials written and read back by a second kernel.
  double partials = ways > 1 ? 2.0 * k.folds * outer * ways * k.innerRows *
                                   k.elementBytes
                             : 0.0;
  memory += partials / bytesPerMicro;
  double waves = std::ceil(double(programs) / (target.getSms() * perSM));
  // The final fold: the threads' partials through shared memory.
  double reduce = k.folds * (2 + llvm::Log2_64(std::max<int64_t>(
                                     1, threads * s.getVector() /
                                            s.getBlock()))) *
                  kStepMicros * waves;
  double issue = double(share) / s.getVector() *
                 std::max<int64_t>(1, k.streams) * steps * waves *
                 kIssueMicros;
  double slots = double(programs) * threads * share * steps;
  double busySms = std::min<double>(target.getSms(), programs);
  double perMicro = busySms * target.getClockMhz();
  double compute =
      std::max(slots * k.instructions / (perMicro * kIssuePerCycle),
               slots * k.specialFunctions / (perMicro * kSpecialPerCycle));
  Estimate e;
  e.micros = kLaunchMicros * (ways > 1 ? 2 : 1) + std::max(memory, compute) +
             reduce + issue;
  e.memoryMicros = memory;
  e.computeMicros = compute;
  llvm::raw_string_ostream os(e.why);
  os << llvm::format("%.0f%% of bandwidth in flight, %.0f wave(s), ",
                     100 * fraction, waves)
     << programs << " program(s) of " << s.getBlock() << " rows"
     << (ways > 1 ? " (" + std::to_string(ways) + " ways, 2 kernels)" : "")
     << ", " << steps
     << " step(s) of " << s.getChunk()
     << llvm::format(", issue %.0f%% of memory time",
                     memory > 0 ? 100 * compute / memory : 0.0);
  return e;
}

/// The share of an attention kernel's keys that its blocks of `bm` query
/// rows visit, the rest skipped by its causal mask or sliding window.
static double visitedFraction(const DotFacts &f, int64_t bm, int64_t bk) {
  if (!f.attention || (!f.windowLower && !f.windowUpper))
    return 1.0;
  KeyWindow window{f.windowLower, f.windowUpper};
  int64_t mb = llvm::divideCeil(f.m, bm);
  double visited = 0;
  for (int64_t block = 0; block < mb; ++block) {
    auto [start, end] = keyRange(window, block * bm, bm, f.k, bk);
    visited += end - start;
  }
  return visited / (double(mb) * f.k);
}

/// Instructions a warp issues per K step of a tensor-core main loop (fitted
/// to the SASS that bench/matmul_instructions.py counts, within a fifth):
/// - mma.sync: its mma instructions and ldmatrix loads (with their
///   addresses) for each fold, five per 16-byte copy of the operand tiles
///   it issues, and about 30 more (waits, the barrier, the loop);
/// - wgmma: a warpgroup's wgmma instructions for each fold, and about 100
///   more (fences, commits, waits, the accumulators' registers, the copies
///   of one issuing thread, the loop); warp-specialized, the consumers'
///   wgmma and about 50 more (the wait for the stage, fences, commit, wait
///   and release), the producer's copies being another warp's.
static double stepInstructions(const DotFacts &f, xt::DotScheduleAttr s) {
  // Instructions per fold and block of 64 rows: 32 bytes of K each (k16,
  // tf32's k8, fp8's k32).
  double kSteps = double(s.getBlockK()) * f.inBytes / 32;
  if (s.getInstruction() == xt::DotInstruction::wgmma) {
    double blocks = double(s.getBlockM()) / 64 / (s.getWarps() / 4);
    return f.folds * blocks * kSteps + (s.getWarpSpecialized() ? 50 : 100);
  }
  double wm = s.getWarpTileM(), wn = s.getWarpTileN();
  double copies = double(s.getBlockM() + s.getBlockN() * f.folds) *
                  s.getBlockK() * f.inBytes / 16 / (32 * s.getWarps());
  return f.folds * kSteps * (wm / 16 * wn / 8 + 2 * (wm / 16 + wn / 16)) +
         5 * copies + 30;
}

static Estimate estimateDot(const DotFacts &f, const xt::ScheduleShape &shape,
                            xt::DotScheduleAttr s, xt::TargetAttr target) {
  int64_t bm = s.getBlockM(), bn = s.getBlockN();
  int64_t mb = llvm::divideCeil(f.m, bm), nb = llvm::divideCeil(f.n, bn);
  if (f.packsHeads(bm)) {
    // A group's heads are the rows of one program: the problem of
    // group x queries rows per program, over the keys they visit.
    DotFacts packed = f;
    packed.batch = f.batch / f.group;
    packed.m = f.group * f.m;
    packed.group = 1;
    packed.k = std::max<int64_t>(
        1, int64_t(std::ceil(f.k * visitedFraction(f, f.m, s.getBlockK()))));
    packed.windowLower = packed.windowUpper = std::nullopt;
    return estimateDot(packed, shape, s, target);
  }
  double fraction = visitedFraction(f, bm, s.getBlockK());
  if (s.getWays() > 1) {
    // Split keys: `ways` times the programs, each over its share of the
    // visited keys; each writes its partial (maximum, sum, accumulator
    // tile) and a second kernel reads them back.
    DotFacts part = f;
    part.batch = f.batch * s.getWays();
    part.k = std::max<int64_t>(
        1, int64_t(std::ceil(f.k * fraction / s.getWays())));
    part.windowLower = part.windowUpper = std::nullopt;
    auto one = xt::DotScheduleAttr::get(
        s.getContext(), bm, bn, s.getBlockK(), s.getStages(), s.getWarps(),
        s.getInstruction(), s.getWarpsM(), s.getTf32(), 1,
        s.getWarpSpecialized());
    Estimate e = estimateDot(part, shape, one, target);
    double partials = 2.0 * f.batch * mb * bm * s.getWays() * (bn + 2) * 4;
    double combine = partials / (target.getBandwidth() * 1e3);
    e.micros += kLaunchMicros + combine;
    e.memoryMicros += combine;
    e.why += ", 2 kernels";
    return e;
  }
  int64_t tiles = mb * nb * f.batch;
  double padded =
      double(mb * bm) * (nb * bn) * f.k * 2 * f.batch * f.folds * fraction;
  // Pipeline depth hides the operand loads (full efficiency from three
  // stages).
  double efficiency = std::min(1.0, 0.4 + 0.2 * s.getStages());
  double peak; // GFLOP/s of the instructions the schedule runs on
  if (s.getInstruction() != xt::DotInstruction::fma) {
    // Tensor cores are fed from shared memory. Per step of 16 along K the
    // program's copies write 32 bytes per row and column of its tile, for
    // 2 x 16 FLOP per output element, and the instructions read:
    // - mma.sync: per warp, 512 bytes of A per 16 rows and 256 bytes of B
    //   per 8 columns of its sub-tile (ldmatrix);
    // - wgmma: per warpgroup and block of 64 rows, the block's rows of A
    //   and all block_n columns of B, 32 bytes each.
    // (Twice the bytes for f32 operands with tf32, at half the peak of
    // 16-bit operands.) An SM moves 128 bytes of shared memory per cycle.
    constexpr double kSharedBytesPerCycle = 128;
    double reads;
    if (s.getInstruction() == xt::DotInstruction::mma_sync) {
      double tm = s.getWarpTileM() / 16.0, tn = s.getWarpTileN() / 8.0;
      reads = s.getWarps() * (512 * tm + 256 * tn);
      // fp8 (m16n8k32) at the 16-bit rate: sm_90 has no fp8 mma.sync
      // (ptxas converts the fragments to f16, F2FP, and issues HMMA.16816;
      // sm_89's QMMA.16832 would be twice that, but no built-in target is
      // sm_89); the operands' bytes are half, which the traffic counts.
      peak = target.getMmaSyncGflops() / (s.getTf32() ? 2 : 1);
    } else {
      reads = bm / 64 * 32.0 * (64 + bn);
      // fp8 (m64nNk32) at twice the 16-bit rate.
      peak = target.getWgmmaGflops() / (s.getTf32() ? 2 : 1) *
             (f.inBytes == 1 ? 2 : 1);
    }
    double flopsPerByte = 32.0 * bm * bn /
                          ((reads + 32.0 * (bm + bn)) * f.inBytes / 2);
    double sharedPeak = flopsPerByte * kSharedBytesPerCycle *
                        target.getClockMhz() * 1e-3 * target.getSms();
    efficiency *= std::min(1.0, sharedPeak / peak);
  } else {
    // Larger tiles reuse each loaded element across more of the output and
    // keep the FMA pipes fed (full efficiency from 128 x 128 tiles). The
    // FMA pipes take f32: 16-bit operands are widened first, about one
    // more instruction per two FMAs.
    efficiency *= std::min(1.0, std::sqrt(double(bm * bn) / (128 * 128)));
    peak = target.getFp32Gflops() / (f.inBytes < 4 ? 1.5 : 1.0);
  }
  double compute = padded / (peak * 1e3 * efficiency);
  xt::ScheduleNeeds needs = s.getNeeds(shape);
  int64_t perSM = residentPerSm(target, needs.threads, 0, needs.sharedMemory);
  double slots = double(target.getSms() * perSM);
  double waves = std::ceil(tiles / slots);
  double tail = waves / std::max(1.0, tiles / slots);
  // The tiles of one wave run together and share operand panels through L2:
  // W tiles of a batch's mb x nb grid read `rows` row panels of A and
  // `columns` column panels of B from device memory, rows x columns = W,
  // as square as the grid allows (a single block of rows, a small M, reads
  // W column panels); a wave of whole grids reads each batch's panels.
  double resident = std::min(double(tiles), slots);
  double grid = double(mb) * nb, rows = 0, columns = 0;
  if (grid == 0) {
    // An empty problem reads nothing.
  } else if (resident >= grid) {
    rows = mb * resident / grid;
    columns = nb * resident / grid;
  } else {
    rows = std::clamp(std::sqrt(resident), 1.0, double(mb));
    columns = std::min(double(nb), resident / rows);
    rows = std::min(double(mb), resident / columns);
  }
  double perWave = rows * bm * f.k * f.inBytes +
                   columns * bn * f.k * f.inBytes * f.folds;
  double traffic = waves * perWave * fraction + f.otherBytes;
  // Device memory runs at full bandwidth with bandwidth x latency bytes in
  // flight (Little's law). Each resident program has the copies its
  // pipeline runs ahead outstanding: stages - 1 K steps of its operand
  // tiles (stages - 2 for wgmma with a group in flight, one step unpipelined).
  // Few programs, a shallow pipeline or a short K step keep fewer bytes in
  // flight and slow the loads.
  // (A warp-specialized producer refills a stage as soon as the group
  // that read it retires: stages - 1 steps ahead again.)
  int64_t ahead = s.getStages() - 1;
  if (s.getInstruction() == xt::DotInstruction::wgmma && s.getStages() >= 3 &&
      !s.getWarpSpecialized())
    ahead = s.getStages() - 2;
  double inFlight = resident * std::max<int64_t>(1, ahead) * s.getBlockK() *
                    (bm + bn * f.folds) * f.inBytes;
  double inFlightFraction =
      inFlight > 0 ? std::min(1.0, inFlight / (target.getBandwidth() *
                                               target.getMemoryLatency()))
                   : 1.0;
  double memory = traffic / (target.getBandwidth() * 1e3 * inFlightFraction);
  if (f.attention) {
    // Device memory: each K/V head's visited keys once (the programs that
    // share one, a GQA group's or a prefill's blocks of queries, meet in
    // L2), the queries and the outputs. L2 to the SMs: every program's
    // visited keys.
    int64_t kvHeads = f.batch / std::max<int64_t>(1, f.group);
    double kv = double(f.k) * fraction * (f.scoreK + f.n) * f.valueBytes;
    double queries = double(f.batch) * f.m * f.scoreK * f.valueBytes;
    traffic = kvHeads * kv + queries + f.otherBytes;
    memory = std::max(traffic / (target.getBandwidth() * 1e3),
                      tiles * kv / (target.getL2Bandwidth() * 1e3));
  }
  // An SM's pipes are shared by the programs resident on it: the busiest
  // SM computes ceil(tiles / SMs) tiles, so fewer tiles than SMs (a small
  // M) leave the rest idle.
  double sms = target.getSms();
  double busiest = std::ceil(tiles / sms) * sms / tiles;
  compute *= busiest;
  if (!f.attention && s.getInstruction() != xt::DotInstruction::fma) {
    // The tensor cores run beside the other pipes, but every instruction of
    // the loop is issued: the busiest SM's warps issue 4 warp-instructions
    // per cycle. The warps issue the tensor-core instructions among the
    // others, so the two overlap, not wholly: a tenth of the shorter shows
    // (between schedules of the same tensor-core time, the one that issues
    // less wins).
    double steps = std::ceil(double(f.k) / s.getBlockK());
    double warpSteps = s.getWarps() * stepInstructions(f, s);
    // A producer thread issues each step's copies: about 24 instructions
    // (its waits, the expected bytes, the loop) and 13 per box (its
    // coordinates and the uniform-register loop ptxas wraps around the
    // copy): one box of A and, per fold, one of B K-major or one per
    // 64-column panel N-major.
    if (s.getWarpSpecialized()) {
      double boxes = 1 + f.folds * (f.rhsKMajor ? 1.0 : bn / 64.0);
      warpSteps += 24 + 13 * boxes;
    }
    double issue = std::ceil(tiles / sms) * steps * warpSteps /
                   (kIssuePerCycle / 32 * target.getClockMhz());
    compute = std::max(compute, issue) + 0.1 * std::min(compute, issue);
  }
  memory *= tail;
  Estimate e;
  e.micros = kLaunchMicros + std::max(compute, memory);
  if (!f.attention) {
    // The pipeline overlaps loads with work, but not wholly (its first
    // loads, each step's waits, the epilogue): a tenth of the shorter
    // shows, so among schedules bound by the same traffic the one with
    // less work wins.
    e.micros += 0.1 * std::min(compute, memory);
  }
  e.memoryMicros = memory;
  e.computeMicros = compute;
  llvm::raw_string_ostream os(e.why);
  if (!f.attention && inFlightFraction < 1)
    os << llvm::format("%.0f%% of bandwidth in flight, ",
                       100 * inFlightFraction);
  os << tiles << " tile(s) in " << llvm::format("%.0f", waves) << " wave(s), "
     << (compute >= memory ? "compute" : "memory")
     << "-bound, "
     << needs.sharedMemory / 1024 << " KiB shared";
  if (fraction < 1)
    os << llvm::format(", %.0f%% of the keys visited", 100 * fraction);
  return e;
}

Estimate AnalyticCostModel::estimate(const KernelFacts &facts,
                                     xt::ScheduleAttrInterface schedule,
                                     xt::TargetAttr target) const {
  if (auto dot = dyn_cast<xt::DotScheduleAttr>(schedule))
    return estimateDot(facts.dot, facts.shape(), dot, target);
  if (auto column = dyn_cast<xt::ColumnScheduleAttr>(schedule))
    return estimateColumn(facts.row, column, target);
  return estimateRow(facts.row, cast<xt::RowScheduleAttr>(schedule), target);
}

std::unique_ptr<CostModel> xtile::createCostModel(StringRef name) {
  if (name == "analytic")
    return std::make_unique<AnalyticCostModel>();
  return nullptr;
}

std::string xtile::scheduleName(xt::ScheduleAttrInterface schedule) {
  std::string n;
  llvm::raw_string_ostream os(n);
  if (auto dot = dyn_cast<xt::DotScheduleAttr>(schedule)) {
    os << "dot:" << dot.getBlockM() << "x" << dot.getBlockN() << "x"
       << dot.getBlockK() << ":" << dot.getStages() << ":" << dot.getWarps();
    if (dot.getInstruction() == xt::DotInstruction::mma_sync)
      os << ":mma" << dot.getWarpsM() << "x"
         << dot.getWarps() / dot.getWarpsM() << (dot.getTf32() ? ":tf32" : "");
    else if (dot.getInstruction() == xt::DotInstruction::wgmma)
      os << ":wgmma" << (dot.getWarpSpecialized() ? ":ws" : "");
    if (dot.getWays() > 1)
      os << ":x" << dot.getWays();
    return n;
  }
  if (auto column = dyn_cast<xt::ColumnScheduleAttr>(schedule)) {
    os << "column:" << column.getWarps() << ":" << column.getVector() << ":"
       << column.getBlock() << "x" << column.getChunk();
    if (column.getWays() > 1)
      os << ":x" << column.getWays();
    return n;
  }
  auto row = cast<xt::RowScheduleAttr>(schedule);
  os << xt::stringifyFoldStrategy(row.getStrategy()) << ":" << row.getWarps()
     << ":" << row.getVector();
  if (row.getChunk())
    os << ":" << row.getChunk();
  if (row.getWays())
    os << ":x" << row.getWays();
  return n;
}
