//===- TileOps.cpp - xtile dialect, attributes and operations -------------===//

#include "xtile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/SymbolicDims.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile::tile;

#include "xtile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "xtile/Dialect/Tile/IR/TileEnums.cpp.inc"
#include "xtile/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tile/IR/TileAttributes.cpp.inc"

void XTileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "xtile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "xtile/Dialect/Tile/IR/TileAttributes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch, int64_t sms,
                                 int64_t maxThreads, int64_t sharedMemory,
                                 int64_t registers, int64_t bandwidth,
                                 int64_t l2, int64_t maxThreadsPerSm,
                                 int64_t maxBlocksPerSm,
                                 int64_t maxRegistersPerThread,
                                 int64_t fp32Gflops, int64_t l2Bandwidth,
                                 int64_t memoryLatency, int64_t clockMhz,
                                 int64_t mmaSyncGflops, int64_t wgmmaGflops) {
  if (!arch.starts_with("sm_"))
    return emitError() << "arch must name an NVIDIA architecture (sm_XY), got '"
                       << arch << "'";
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"sms", sms},
        {"max_threads", maxThreads},
        {"shared_memory", sharedMemory},
        {"registers", registers},
        {"bandwidth", bandwidth},
        {"l2", l2},
        {"max_threads_per_sm", maxThreadsPerSm},
        {"max_blocks_per_sm", maxBlocksPerSm},
        {"max_registers_per_thread", maxRegistersPerThread},
        {"fp32_gflops", fp32Gflops},
        {"l2_bandwidth", l2Bandwidth},
        {"memory_latency", memoryLatency},
        {"clock_mhz", clockMhz}})
    if (value <= 0)
      return emitError() << name << " must be positive, got " << value;
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"mma_sync_gflops", mmaSyncGflops},
        {"wgmma_gflops", wgmmaGflops}})
    if (value < 0)
      return emitError() << name << " must not be negative, got " << value;
  if (wgmmaGflops > 0 && arch != "sm_90a")
    return emitError() << "wgmma_gflops is for sm_90a (wgmma), not " << arch;
  if (maxThreads > maxThreadsPerSm)
    return emitError() << "max_threads " << maxThreads
                       << " exceeds max_threads_per_sm " << maxThreadsPerSm;
  return success();
}

bool xtile::tile::hasWgmma(TargetAttr target) {
  return target.getArch() == "sm_90a" && target.getWgmmaGflops() > 0;
}

bool xtile::tile::hasMmaSync(TargetAttr target) {
  unsigned version = 0;
  StringRef digits = target.getArch().drop_front(3).take_while(
      [](char c) { return llvm::isDigit(c); });
  return !digits.getAsInteger(10, version) && version >= 80 &&
         target.getMmaSyncGflops() > 0;
}

bool xtile::tile::hasFp8MmaSync(TargetAttr target) {
  return hasMmaSync(target) && hasFp8Conversions(target.getArch());
}

TargetAttr TargetAttr::getBuiltin(MLIRContext *ctx, StringRef arch) {
  // Published figures: H100 SXM (sm_90; the H200 has the same SMs and more
  // bandwidth) and A100 SXM 80 GB (sm_80), from NVIDIA's architecture
  // whitepapers and the CUDA occupancy tables (compute capability 8.0 and
  // 9.0: 2048 threads, 32 blocks and 64K registers per SM, 255 registers per
  // thread). Shared memory is the most a block can opt into. L2 serves
  // re-reads at about three times device-memory bandwidth; device-memory
  // latency is about 600 ns on both. Boost clocks: 1980 MHz (H100/H200 SXM),
  // 1410 MHz (A100). Tensor cores through mma.sync: the A100's dense
  // f16/bf16 peak (312 TFLOP/s); on the H100 mma.sync issues at about two
  // thirds of the wgmma peak (989 TFLOP/s), an estimate to replace by a
  // measurement. sm_90a (the same GPU, its architecture-specific
  // instructions enabled) has wgmma, at the H100 SXM's dense peak.
  if (arch == "sm_90" || arch == "sm_90a")
    return TargetAttr::get(ctx, arch, /*sms=*/132, /*max_threads=*/1024,
                           /*shared_memory=*/232448, /*registers=*/65536,
                           /*bandwidth=*/3350, /*l2=*/52428800,
                           /*max_threads_per_sm=*/2048,
                           /*max_blocks_per_sm=*/32,
                           /*max_registers_per_thread=*/255,
                           /*fp32_gflops=*/67000, /*l2_bandwidth=*/10050,
                           /*memory_latency=*/600, /*clock_mhz=*/1980,
                           /*mma_sync_gflops=*/660000,
                           /*wgmma_gflops=*/arch == "sm_90a" ? 989000 : 0);
  if (arch == "sm_80")
    return TargetAttr::get(ctx, arch, /*sms=*/108, /*max_threads=*/1024,
                           /*shared_memory=*/166912, /*registers=*/65536,
                           /*bandwidth=*/2039, /*l2=*/41943040,
                           /*max_threads_per_sm=*/2048,
                           /*max_blocks_per_sm=*/32,
                           /*max_registers_per_thread=*/255,
                           /*fp32_gflops=*/19500, /*l2_bandwidth=*/6117,
                           /*memory_latency=*/600, /*clock_mhz=*/1410,
                           /*mma_sync_gflops=*/312000, /*wgmma_gflops=*/0);
  return {};
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

bool xtile::tile::fitsTarget(const ScheduleNeeds &needs, TargetAttr target,
                             std::string *reason) {
  auto fail = [&](const Twine &why) {
    if (reason)
      *reason = why.str();
    return false;
  };
  if (needs.threads > target.getMaxThreads())
    return fail(Twine(needs.threads) + " threads exceed the " +
                Twine(target.getMaxThreads()) + " per block of " +
                target.getArch());
  if (needs.registersPerThread > target.getMaxRegistersPerThread())
    return fail("about " + Twine(needs.registersPerThread) +
                " registers per thread exceed the " +
                Twine(target.getMaxRegistersPerThread()) + " of " +
                target.getArch());
  if (needs.registersPerThread * needs.threads > target.getRegisters())
    return fail("about " + Twine(needs.registersPerThread * needs.threads) +
                " registers per block exceed the " +
                Twine(target.getRegisters()) + " of an SM of " +
                target.getArch());
  if (needs.sharedMemory > target.getSharedMemory())
    return fail(Twine(needs.sharedMemory) +
                " bytes of shared memory exceed the " +
                Twine(target.getSharedMemory()) + " per block of " +
                target.getArch());
  return true;
}

static bool isPowerOfTwoIn(int64_t v, int64_t lo, int64_t hi) {
  return v >= lo && v <= hi && llvm::isPowerOf2_64(v);
}

/// The warps and vector width of a row or column schedule.
static LogicalResult
verifyWarpsAndVector(function_ref<InFlightDiagnostic()> emitError,
                     int64_t warps, int64_t vector) {
  if (!isPowerOfTwoIn(warps, 1, 32))
    return emitError() << "warps must be a power of two in [1, 32], got "
                       << warps;
  if (!isPowerOfTwoIn(vector, 1, 16))
    return emitError() << "vector must be a power of two in [1, 16], got "
                       << vector;
  return success();
}

LogicalResult
RowScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        FoldStrategy strategy, int64_t warps, int64_t vector,
                        int64_t chunk, int64_t ways) {
  if (failed(verifyWarpsAndVector(emitError, warps, vector)))
    return failure();
  if (chunk && !isPowerOfTwoIn(chunk, 32 * warps * vector, INT64_MAX))
    return emitError() << "chunk must be a power of two of at least warps x "
                          "32 x vector = "
                       << 32 * warps * vector << ", got " << chunk;
  if ((strategy == FoldStrategy::split) != (ways != 0))
    return emitError() << "ways is given with, and only with, the split "
                          "strategy";
  if (ways && ways < 2)
    return emitError() << "split needs at least 2 ways, got " << ways
                       << " ways";
  if (strategy == FoldStrategy::serial && (warps != 1 || chunk))
    return emitError() << "a serial fold runs on one thread: warps = 1 and "
                          "no chunk";
  return success();
}

int64_t RowScheduleAttr::getNumWarps() const { return getWarps(); }
int64_t RowScheduleAttr::getVectorWidth() const { return getVector(); }
int64_t RowScheduleAttr::getNumStages() const { return getChunk() ? 2 : 1; }

ScheduleNeeds RowScheduleAttr::getNeeds(const ScheduleShape &shape) const {
  // Per thread: a baseline for addresses and scalars, plus one register per
  // element it holds of each live tile (about one per load stream).
  constexpr int64_t kBaseRegisters = 32;
  ScheduleNeeds needs;
  bool serial = getStrategy() == FoldStrategy::serial;
  needs.threads = 32 * getWarps();
  int64_t tile = getChunk();
  if (!tile && getWays())
    tile = int64_t(llvm::PowerOf2Ceil(
        llvm::divideCeil(std::max<int64_t>(shape.columns, 1), getWays())));
  if (!tile)
    tile = int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(shape.columns, 1)));
  int64_t holders = serial ? 1 : needs.threads;
  needs.registersPerThread =
      kBaseRegisters +
      llvm::divideCeil(tile, holders) * std::max<int64_t>(1, shape.streams);
  // A block fold exchanges one value per warp through shared memory.
  if (getStrategy() == FoldStrategy::block ||
      getStrategy() == FoldStrategy::split)
    needs.sharedMemory = getWarps() * 8;
  return needs;
}

LogicalResult
ColumnScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t warps, int64_t vector, int64_t block,
                           int64_t chunk, int64_t ways) {
  if (failed(verifyWarpsAndVector(emitError, warps, vector)))
    return failure();
  if (!isPowerOfTwoIn(block, vector, 1024))
    return emitError() << "block must be a power of two in [vector = "
                       << vector << ", 1024], got " << block;
  if (!isPowerOfTwoIn(chunk, 1, 1024))
    return emitError() << "chunk must be a power of two in [1, 1024], got "
                       << chunk;
  if (ways < 1 || ways > 1024)
    return emitError() << "ways must be in [1, 1024], got " << ways;
  // Every thread holds at least one group of `vector`, at most 256
  // elements (what the layouts deal out).
  int64_t threads = 32 * warps;
  if (chunk * block < threads * vector || chunk * block > 256 * threads)
    return emitError() << "a [chunk, block] = [" << chunk << ", " << block
                       << "] tile must give each of the " << threads
                       << " threads 1 to 256 groups of vector = " << vector
                       << " elements";
  return success();
}

int64_t ColumnScheduleAttr::getNumWarps() const { return getWarps(); }
int64_t ColumnScheduleAttr::getVectorWidth() const { return getVector(); }
int64_t ColumnScheduleAttr::getNumStages() const { return 2; }

ScheduleNeeds ColumnScheduleAttr::getNeeds(const ScheduleShape &shape) const {
  // Per thread: a baseline, its share of each load stream's tile and of
  // the accumulator; the final fold exchanges one value per element of
  // max(threads x vector, block) through shared memory.
  constexpr int64_t kBaseRegisters = 32;
  ScheduleNeeds needs;
  needs.threads = 32 * getWarps();
  int64_t share = getChunk() * getBlock() / needs.threads;
  needs.registersPerThread =
      kBaseRegisters + share * (std::max<int64_t>(1, shape.streams) + 1);
  needs.sharedMemory =
      std::max(needs.threads * getVector(), getBlock()) * 8;
  return needs;
}

LogicalResult
DotScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t blockM, int64_t blockN, int64_t blockK,
                        int64_t stages, int64_t warps,
                        DotInstruction instruction, int64_t warpsM,
                        bool tf32, int64_t ways, bool warpSpecialized) {
  if (warpSpecialized && (instruction != DotInstruction::wgmma || stages < 2 ||
                          ways != 1))
    return emitError() << "warp_specialized needs instruction = wgmma, 2 or "
                          "more stages and one way; got instruction = "
                       << stringifyDotInstruction(instruction)
                       << ", stages = " << stages << ", ways = " << ways;
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"block_m", blockM},
                             {"block_n", blockN},
                             {"block_k", blockK}})
    if (!isPowerOfTwoIn(value, 1, 256))
      return emitError() << name << " must be a power of two in [1, 256], got "
                         << value;
  if (stages < 1 || stages > 8)
    return emitError() << "stages must be in [1, 8], got " << stages;
  if (!isPowerOfTwoIn(warps, 1, 32))
    return emitError() << "warps must be a power of two in [1, 32], got "
                       << warps;
  if (ways < 1 || ways > 1024)
    return emitError() << "ways must be in [1, 1024], got " << ways;
  if (warpsM < 1 || warps % warpsM)
    return emitError() << "warps_m must divide warps (" << warps << "), got "
                       << warpsM;
  if (tf32 && instruction == DotInstruction::fma)
    return emitError() << "tf32 runs on instruction = mma_sync or wgmma, got "
                       << stringifyDotInstruction(instruction);
  if (instruction == DotInstruction::fma) {
    if (warpsM != 1)
      return emitError() << "warps_m applies to tensor-core instructions "
                            "only";
    return success();
  }
  if (instruction == DotInstruction::wgmma) {
    // A warpgroup's 64 or 128 rows (one or two m64 blocks) by the whole
    // block_n, 16 rows of each block per warp; one 128-byte swizzle atom
    // of 16-bit K per row.
    if (warps % 4 || warpsM != warps ||
        (blockM != 16 * warps && blockM != 32 * warps))
      return emitError() << "with instruction = wgmma, warps is a multiple "
                            "of 4 (warpgroups of 64 or 128 rows), warps_m = "
                            "warps and block_m = 16 * warps or 32 * warps; "
                            "got block_m = "
                         << blockM << ", warps = " << warps
                         << ", warps_m = " << warpsM;
    // 128 bytes of K: 64 16-bit elements, 128 fp8, or 32 f32 (tf32); the
    // kernel's verifier matches block_k to its operands.
    if ((tf32 ? blockK != 32 : (blockK != 64 && blockK != 128)) ||
        blockN < 8)
      return emitError() << "with instruction = wgmma, block_k is 64 (128 "
                            "on fp8, 32 with tf32) and block_n at least 8; "
                            "got block_k = "
                         << blockK << ", block_n = " << blockN;
    return success();
  }
  // mma.sync m16n8k16: each warp's sub-tile is whole 16 x 16 blocks (B is
  // read 16 columns at a time), K steps of 16.
  int64_t warpsN = warps / warpsM;
  if (blockM % (16 * warpsM) || blockN % (16 * warpsN))
    return emitError() << "with instruction = mma_sync, block_m must be a "
                          "multiple of 16 * warps_m and block_n of 16 * "
                          "(warps / warps_m); got "
                       << blockM << " x " << blockN << " over " << warpsM
                       << " x " << warpsN << " warps";
  if (blockK % 16)
    return emitError() << "with instruction = mma_sync, block_k must be a "
                          "multiple of 16, got "
                       << blockK;
  return success();
}

int64_t DotScheduleAttr::getWarpTileM() const {
  return getBlockM() / getWarpsM();
}
int64_t DotScheduleAttr::getWarpTileN() const {
  return getBlockN() / (getWarps() / getWarpsM());
}

int64_t DotScheduleAttr::getNumWarps() const { return getWarps(); }
int64_t DotScheduleAttr::getVectorWidth() const {
  // 16-byte copies of operand tiles on tensor cores (f32 with tf32).
  return getInstruction() == DotInstruction::fma || getTf32() ? 4 : 8;
}
int64_t DotScheduleAttr::getNumStages() const { return getStages(); }

ScheduleNeeds DotScheduleAttr::getNeeds(const ScheduleShape &shape) const {
  // Registers: each thread keeps its share of every accumulator tile and,
  // in the unrolled K step, about one operand per accumulator, plus a
  // baseline for addresses. Shared memory: every stage holds the operand
  // tiles of every dot (counted per dot: an upper bound when dots share
  // their left operand).
  constexpr int64_t kBaseRegisters = 64;
  ScheduleNeeds needs;
  needs.threads = 32 * getWarps();
  int64_t accumulators = llvm::divideCeil(
      getBlockM() * getBlockN() * shape.contractions * shape.accumulatorSets,
      needs.threads);
  // A producer warpgroup beside the consumers (its registers go to them).
  if (getWarpSpecialized())
    needs.threads += 128;
  needs.registersPerThread = kBaseRegisters + 2 * accumulators;
  if (getInstruction() != DotInstruction::fma) {
    // The accumulators and one k16 step's fragments: 4 registers of A per
    // 16 rows and 2 of B per 8 columns of the warp's sub-tile.
    constexpr int64_t kMmaBaseRegisters = 40;
    needs.registersPerThread = kMmaBaseRegisters + accumulators;
    if (getInstruction() == DotInstruction::mma_sync)
      needs.registersPerThread +=
          4 * (getWarpTileM() / 16) + 2 * (getWarpTileN() / 8);
  }
  // (64-bit indices: two registers each.)
  needs.registersPerThread += 2 * shape.programScalars;
  if (shape.lhsThroughRegisters)
    needs.registersPerThread += llvm::divideCeil(
        getBlockM() * getBlockK() * shape.contractions, needs.threads);
  needs.sharedMemory = getStages() * shape.contractions *
                       (getBlockM() * getBlockK() + getBlockK() * getBlockN()) *
                       shape.elementBytes;
  return needs;
}

LogicalResult PipelineAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t stages, bool overlap,
                                   bool warpSpecialized) {
  if (stages < 2)
    return emitError() << "a pipelined loop has at least 2 stages, got "
                       << stages;
  if (overlap && stages < 3)
    return emitError() << "overlapping wgmma groups across iterations needs "
                          "at least 3 stages, got "
                       << stages;
  return success();
}

LogicalResult
AsyncCopyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t group, bool transposed,
                      DenseI64ArrayAttr tmaBoxAttr, int64_t swizzle) {
  ArrayRef<int64_t> tmaBox =
      tmaBoxAttr ? tmaBoxAttr.asArrayRef() : ArrayRef<int64_t>();
  if (group < 1 || !llvm::isPowerOf2_64(group))
    return emitError() << "an asynchronous copy's group must be a power of "
                          "two, got "
                       << group;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "a TMA swizzle is 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  if (swizzle && tmaBox.empty())
    return emitError() << "a swizzle is for TMA copies only (no tma_box)";
  if (tmaBox.size() > 5 ||
      llvm::any_of(tmaBox, [](int64_t s) { return s < 1 || s > 256; }))
    return emitError() << "a TMA box has at most 5 dimensions of 1 to 256 "
                          "elements";
  return success();
}

LogicalResult XTileDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == getScheduleAttrHelper().getName()) {
    if (!isa<ScheduleAttrInterface>(attr.getValue()))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' must be a schedule (#xtile.row_schedule, "
                                  "#xtile.column_schedule or "
                                  "#xtile.dot_schedule), got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == getNumStagesAttrHelper().getName() ||
      attr.getName() == getBatchGroupAttrHelper().getName()) {
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || !count.getValue().isStrictlyPositive())
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' must be a positive integer, got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == getPipelineAttrHelper().getName()) {
    if (!isa<PipelineAttr>(attr.getValue()) || !isa<scf::ForOp>(op))
      return op->emitOpError()
             << "'" << attr.getName().getValue()
             << "' must be a #xtile.pipeline on an scf.for, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getAsyncCopyAttrHelper().getName()) {
    if (!isa<AsyncCopyAttr>(attr.getValue()) || !isa<LoadOp>(op))
      return op->emitOpError()
             << "'" << attr.getName().getValue()
             << "' must be a #xtile.async_copy on an xtile.load, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == xtile::kMayAliasAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<SymbolOpInterface>(op))
      return op->emitOpError()
             << "'" << attr.getName().getValue()
             << "' must be a unit attribute on a kernel";
    return success();
  }
  return op->emitOpError() << "unknown xtile attribute '" << attr.getName().getValue()
                           << "'";
}

//===----------------------------------------------------------------------===//
// KernelOp and ProgramIdOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  return xtile::parseKernel(parser, result, getNumInputsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  xtile::printKernel(p, *this, getSymName(), getNumInputs(),
                     getNumInputsAttrName());
}

LogicalResult KernelOp::verify() {
  if (failed(xtile::verifyKernelBuffers(*this, getBodyBlock(),
                                        static_cast<int64_t>(getNumInputs()))))
    return failure();
  ArrayRef<int64_t> grid = getGrid();
  if (grid.empty() || grid.size() > 3 ||
      llvm::any_of(grid, [](int64_t g) { return g <= 0; }))
    return emitOpError() << "grid must have 1 to 3 positive dimensions, got ["
                         << grid << "]";
  if (std::optional<AffineMap> map = getGridMap())
    if (failed(xtile::verifyGridMap(*this, *map, grid)))
      return failure();
  int64_t warps = static_cast<int64_t>(getNumWarps());
  if (warps < 1 || warps > 32 || !llvm::isPowerOf2_64(warps))
    return emitOpError() << "num_warps must be a power of two in [1, 32], got "
                         << warps;
  if (std::optional<TargetAttr> target = getTarget())
    if (warps * 32 > target->getMaxThreads())
      return emitOpError() << warps << " warps exceed the "
                           << target->getMaxThreads()
                           << " threads per block of " << target->getArch();
  ScheduleAttrInterface schedule = getScheduleAttr();
  if (!schedule)
    return success();
  if (schedule.getNumWarps() != warps)
    return emitOpError() << "num_warps " << warps
                         << " differs from the schedule's "
                         << schedule.getNumWarps();
  auto dotSchedule = dyn_cast<DotScheduleAttr>(schedule);
  if (dotSchedule && dotSchedule.getInstruction() != DotInstruction::fma) {
    bool tf32 = dotSchedule.getTf32();
    WalkResult bad = walk([&](DotOp dot) {
      Type lhs = getElementTypeOrSelf(dot.getLhs().getType());
      Type rhs = getElementTypeOrSelf(dot.getRhs().getType());
      bool operands = tf32 ? lhs.isF32()
                           : (lhs.isF16() || lhs.isBF16() ||
                              xtile::isFp8(lhs));
      if (lhs != rhs || !operands ||
          !getElementTypeOrSelf(dot.getAcc().getType()).isF32()) {
        InFlightDiagnostic d = dot.emitOpError("runs on tensor cores (instruction = ")
            << stringifyDotInstruction(dotSchedule.getInstruction())
            << (tf32 ? ", tf32 = true" : "") << "), which take "
            << (tf32 ? "f32" : "f16, bf16 or fp8")
            << " operands of one type and an f32 accumulator; got " << lhs
            << " x " << rhs << " -> "
            << getElementTypeOrSelf(dot.getAcc().getType());
        if (!tf32 && lhs.isF32() && rhs.isF32())
          d << " (f32 operands need tf32 = true)";
        return WalkResult::interrupt();
      }
      // wgmma reads 128 bytes of each operand row per K step.
      if (dotSchedule.getInstruction() == DotInstruction::wgmma &&
          dotSchedule.getBlockK() * xtile::getElementBytes(lhs) != 128) {
        dot.emitOpError("runs on wgmma, which reads 128 bytes of K per "
                        "operand row: block_k is ")
            << 128 / xtile::getElementBytes(lhs) << " on " << lhs
            << " operands, got " << dotSchedule.getBlockK();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
  }
  std::optional<TargetAttr> target = getTarget();
  if (!target)
    return success();
  if (dotSchedule &&
      dotSchedule.getInstruction() == DotInstruction::mma_sync &&
      !hasMmaSync(*target))
    return emitOpError() << "schedule " << schedule
                         << " runs on mma.sync, which " << target->getArch()
                         << " does not have (sm_80 and later)";
  if (dotSchedule &&
      dotSchedule.getInstruction() == DotInstruction::mma_sync &&
      !hasFp8MmaSync(*target)) {
    WalkResult fp8 = walk([](DotOp dot) {
      return xtile::isFp8(getElementTypeOrSelf(dot.getLhs().getType()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (fp8.wasInterrupted())
      return emitOpError() << "schedule " << schedule
                           << " multiplies fp8 on mma.sync, which "
                           << target->getArch()
                           << " does not (sm_89 and later)";
  }
  if (dotSchedule && dotSchedule.getInstruction() == DotInstruction::wgmma &&
      !hasWgmma(*target))
    return emitOpError() << "schedule " << schedule
                         << " runs on wgmma, which " << target->getArch()
                         << " does not have (sm_90a)";
  // What the body shows of the kernel's shape: its dots and their operands.
  ScheduleShape shape;
  shape.contractions = 0;
  walk([&](DotOp dot) {
    ++shape.contractions;
    shape.elementBytes =
        xtile::getElementBytes(getElementTypeOrSelf(dot.getLhs().getType()));
  });
  shape.contractions = std::max<int64_t>(1, shape.contractions);
  std::string reason;
  if (!fitsTarget(schedule.getNeeds(shape), *target, &reason))
    return emitOpError() << "schedule " << schedule
                         << " does not fit the target: " << reason;
  return success();
}

SmallVector<int64_t> KernelOp::getGridAt(ArrayRef<int64_t> sizes) {
  if (std::optional<AffineMap> map = getGridMap())
    return xtile::evaluateSizeMap(*map, sizes);
  return SmallVector<int64_t>(getGrid());
}

LogicalResult ProgramIdOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("must be inside an xtile.kernel");
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= static_cast<int64_t>(kernel.getGrid().size()))
    return emitOpError() << "dim " << dim << " is out of range for a grid of "
                         << kernel.getGrid().size() << " dimension(s)";
  return success();
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  int64_t lower = static_cast<int64_t>(getLower());
  int64_t upper = static_cast<int64_t>(getUpper());
  if (upper <= lower)
    return emitOpError() << "upper " << upper << " must exceed lower " << lower;
  if (type.getRank() != 1 || type.getDimSize(0) != upper - lower)
    return emitOpError() << "result " << type << " must be a 1-D tile of "
                         << "upper - lower = " << upper - lower << " elements";
  return success();
}

LogicalResult SplatOp::verify() {
  Type element = cast<ShapedType>(getType()).getElementType();
  if (getInput().getType() != element)
    return emitOpError() << "operand " << getInput().getType()
                         << " must be the element type of " << getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  bool ok = in.getRank() == out.getRank() &&
            in.getElementType() == out.getElementType();
  for (int64_t d = 0; ok && d < in.getRank(); ++d)
    ok = in.getDimSize(d) == 1 || in.getDimSize(d) == out.getDimSize(d);
  if (!ok)
    return emitOpError() << "cannot broadcast " << in << " to " << out
                         << " (same rank and element type; each dimension 1 "
                            "or equal)";
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (in.getElementType() != out.getElementType() ||
      in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << in << " to " << out;
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

/// Checks the indices of an access against the buffer, and that every tile
/// operand (indices, mask) has the shape of `value`, or that `value` is one
/// element when all indices are scalars.
static LogicalResult verifyAccess(Operation *op, MemRefType buffer,
                                  ValueRange indices, Value mask, Type value) {
  if (static_cast<int64_t>(indices.size()) != buffer.getRank())
    return op->emitOpError() << "has " << indices.size() << " indices for "
                             << buffer << " of rank " << buffer.getRank();
  bool anyTile = llvm::any_of(
      indices, [](Value v) { return isa<RankedTensorType>(v.getType()); });
  auto tile = dyn_cast<RankedTensorType>(value);
  if (!anyTile) {
    if (value != buffer.getElementType())
      return op->emitOpError() << "with scalar indices accesses one "
                               << buffer.getElementType() << ", not " << value;
    if (mask)
      return op->emitOpError("with scalar indices takes no mask");
    return success();
  }
  if (!tile)
    return op->emitOpError()
           << "with tile indices accesses a tile of " << buffer.getElementType()
           << ", not one " << value;
  if (tile.getElementType() != buffer.getElementType())
    return op->emitOpError() << "accesses a tile of " << buffer.getElementType()
                             << ", not " << value;
  for (Value index : indices)
    if (auto indexTile = dyn_cast<RankedTensorType>(index.getType()))
      if (indexTile.getShape() != tile.getShape())
        return op->emitOpError() << "index tile " << indexTile
                                 << " must have the shape of " << tile;
  if (mask &&
      cast<RankedTensorType>(mask.getType()).getShape() != tile.getShape())
    return op->emitOpError()
           << "mask " << mask.getType() << " must have the shape of " << tile;
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getBuffer().getType(), getIndices(), getMask(),
                          getType())))
    return failure();
  // Loads are pure because kernel inputs are read-only.
  auto arg = dyn_cast<BlockArgument>(getBuffer());
  auto kernel =
      arg ? dyn_cast<KernelOp>(arg.getOwner()->getParentOp()) : KernelOp();
  if (!kernel || arg.getArgNumber() >= kernel.getNumInputs())
    return emitOpError("must load from an input buffer of its kernel");
  if (Value other = getOther()) {
    if (!getMask())
      return emitOpError("takes 'other' only with a mask");
    if (other.getType() != getElementTypeOrSelf(getType()))
      return emitOpError() << "other " << other.getType()
                           << " must be the element type of " << getType();
  }
  return success();
}

LogicalResult StoreOp::verify() {
  if (getAccumulate()) {
    Type t = getBuffer().getType().getElementType();
    if (!t.isF32() && !t.isF64() && !t.isInteger(32) && !t.isInteger(64))
      return emitOpError("accumulates into ")
             << t << "; only f32, f64, i32 and i64 are added atomically";
  }
  return verifyAccess(*this, getBuffer().getType(), getIndices(), getMask(),
                      getValue().getType());
}

//===----------------------------------------------------------------------===//
// FoldOp and DotOp
//===----------------------------------------------------------------------===//

/// Whether `identity` is the neutral element of `kind`.
static bool isNeutral(CombineKind kind, TypedAttr identity) {
  if (auto f = dyn_cast<FloatAttr>(identity)) {
    APFloat v = f.getValue();
    switch (kind) {
    case CombineKind::add:
      return v.isZero();
    case CombineKind::mul:
      return v.isExactlyValue(1.0);
    case CombineKind::max:
      return v.isInfinity() && v.isNegative();
    case CombineKind::min:
      return v.isInfinity() && !v.isNegative();
    default:
      return false;
    }
  }
  auto i = dyn_cast<IntegerAttr>(identity);
  if (!i)
    return false;
  APInt v = i.getValue();
  switch (kind) {
  case CombineKind::add:
    return v.isZero();
  case CombineKind::mul:
    return v.isOne();
  case CombineKind::max:
    return v.isMinSignedValue();
  case CombineKind::min:
    return v.isMaxSignedValue();
  case CombineKind::And:
    return v.isAllOnes();
  case CombineKind::Or:
    return v.isZero();
  }
  return false;
}

LogicalResult FoldOp::verify() {
  auto input = cast<RankedTensorType>(getInput().getType());
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError("must reduce at least one dimension");
  SmallVector<int64_t> kept;
  for (auto [i, d] : llvm::enumerate(dims))
    if (d < 0 || d >= input.getRank() || (i > 0 && dims[i - 1] >= d))
      return emitOpError() << "dims [" << dims << "] must be sorted, unique "
                           << "dimensions of " << input;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(input.getDimSize(d));
  Type expected =
      kept.empty() ? input.getElementType() : Type(input.clone(kept));
  if (getType() != expected)
    return emitOpError() << "result " << getType() << " must be " << expected
                         << " (" << input << " without dims [" << dims << "])";
  if (getIdentity().getType() != input.getElementType())
    return emitOpError() << "identity " << getIdentity()
                         << " must have the element type of " << input;
  bool isFloat = isa<FloatType>(input.getElementType());
  CombineKind kind = getCombine();
  if (isFloat && (kind == CombineKind::And || kind == CombineKind::Or))
    return emitOpError() << "combine '" << stringifyCombineKind(kind)
                         << "' needs integers, got " << input;
  // Masked-off elements hold the identity, so it must be neutral.
  if (!isNeutral(kind, getIdentity()))
    return emitOpError() << "identity " << getIdentity()
                         << " is not the neutral element of '"
                         << stringifyCombineKind(kind) << "'";
  if (getStrategy() != FoldStrategy::serial &&
      !(getAssociative() && getCommutative()))
    return emitOpError() << "strategy '" << stringifyFoldStrategy(getStrategy())
                         << "' reorders the fold: it must be associative and "
                            "commutative";
  return success();
}

LogicalResult DotOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2 ||
      lhs.getDimSize(1) != rhs.getDimSize(0) ||
      acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError() << "needs [M, K] x [K, N] -> [M, N] tiles, got " << lhs
                         << " x " << rhs << " -> " << acc;
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError() << "operands " << lhs << " and " << rhs
                         << " must have the same element type";
  Type in = lhs.getElementType(), out = acc.getElementType();
  if (isa<IntegerType>(in) &&
      (!isa<IntegerType>(out) ||
       out.getIntOrFloatBitWidth() < std::max(32u, in.getIntOrFloatBitWidth())))
    return emitOpError() << "accumulator " << acc
                         << " must be an integer of at least 32 bits and as "
                            "wide as "
                         << in;
  if (isa<FloatType>(in) &&
      (!isa<FloatType>(out) ||
       out.getIntOrFloatBitWidth() < std::max(32u, in.getIntOrFloatBitWidth())))
    return emitOpError() << "accumulator " << acc
                         << " must be at least f32 and as wide as " << in;
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

using xtile::parseSizeNames;
using xtile::printSizeNames;

LogicalResult LaunchOp::verify() {
  return xtile::verifyLaunchUpdates(*this, getUpdates(), getInputs(),
                                    getOutputs());
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return xtile::verifyLaunchBuckets(*this, getKernelAttr(), getBucketsAttr(),
                                    getSizes(), getInputs(), getOutputs(),
                                    symbols);
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Tile/IR/TileOps.cpp.inc"
