//===- KernelFacts.h - what a schedule is chosen from -----------*- C++ -*-===//
//
// The facts of a Loop IR kernel that its schedule depends on: the shape of
// its row nest or contraction, its buffers and accesses. Computed once from
// the IR; the schedule space, the cost model and the lowering read them.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_CONVERSION_LOOPTOTILE_KERNELFACTS_H
#define XTILE_CONVERSION_LOOPTOTILE_KERNELFACTS_H

#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace llvm::json {
class Object;
} // namespace llvm::json

namespace xtile {

/// A row kernel's nest: `rows` (outer to inner) give one program per
/// iteration; the innermost row body holds folds and column loops over at
/// most `columns` iterations (0: no column work).
struct RowNest {
  llvm::SmallVector<loop::ParallelOp> rows;
  mlir::Block *body = nullptr;
  int64_t columns = 0;
  int64_t folds = 0;
  bool contraction = false;
  bool attention = false; // a weighted online fold (see Contraction)
  bool uniform = true; // all column loops have the same length
};

/// Facts of a row kernel.
struct RowFacts {
  int64_t programs = 1;
  int64_t columns = 0;
  int64_t tile = 1; // columns padded to a power of two
  int64_t folds = 0;
  int64_t elementBytes = 4; // widest element of any buffer
  int64_t bytes = 0;        // every buffer once
  int64_t streams = 1;      // tile loads in the body
  bool contiguous = true;   // every column access walks the last dimension
  int64_t passes = 1;       // column loops (folds and the elementwise loop)
  bool splittable = false;  // folds independent of each other
  int64_t rowBytes = 0;     // bytes of one row of the column-indexed inputs
  /// Some column loop or fold runs over a dynamic size (`columns` is then
  /// its hint): only schedules over chunks of the row apply.
  bool dynamicColumns = false;
  /// Some row loop runs over a dynamic size: no split (its partials are
  /// per row).
  bool dynamicRows = false;
  /// A column reduction can run as one (#xtile.column_schedule): the body
  /// is folds only, and every access that depends on the innermost row has
  /// it as its last index and nowhere else, so a block of adjacent rows is
  /// a coalesced tile row; `innerRows` is that row loop's (static) length.
  bool columnKernel = false;
  int64_t innerRows = 0;
  /// Bytes of the buffers some fold reads down a non-last dimension (one
  /// element per 32-byte sector when a program takes one row).
  int64_t stridedBytes = 0;
  /// Instructions issued per element of a row (over every pass), and the
  /// special-function operations among them (instructionCost).
  double instructions = 0, specialFunctions = 0;

  /// What the schedules' resource needs depend on.
  tile::ScheduleShape shape() const;
};

/// What one scalar operation of a kernel body costs once compiled for the
/// GPU: instructions issued, and special-function (MUFU) operations among
/// them. Math functions count what --xkernel-expand-math builds for them
/// (bench/instructions.py shows the SASS).
struct InstructionCost {
  double instructions = 0, specialFunctions = 0;
};
/// `halfOutputs`: the op's kernel stores only f16 and bf16 results, so
/// that --xkernel-expand-math builds its cheaper 16-bit forms.
InstructionCost instructionCost(mlir::Operation *op, bool fastMath = false,
                                bool halfOutputs = false);

/// Facts of a contraction kernel: `folds` sums of products over K of
/// [batch x m x k] and [batch x k x n] operands.
struct DotFacts {
  int64_t batch = 1, m = 1, n = 1, k = 1, folds = 1;
  int64_t inBytes = 4;    // operand element size
  bool tensorCoreOperands = false; // f16 x f16 or bf16 x bf16
  bool f32Operands = false;        // f32 x f32 (tensor cores with tf32)
  /// e4m3 x e4m3 or e5m2 x e5m2, both operands contiguous along K in
  /// memory (mma.sync m16n8k32 reads them K-major only).
  bool fp8Operands = false;
  bool rhsKMajor = false; // every b(k, j) contiguous along k in memory
  bool rhsNMajor = false; // every b(k, j) contiguous along j in memory
  /// Some a(i, k) is read at a row that a load per row gives (a grouped
  /// GEMM's rows, gathered by sorted pair ids): its tiles pass through
  /// registers (their addresses cannot be computed ahead for
  /// asynchronous copies).
  bool lhsRowsGathered = false;
  /// The values computed once per program and kept through the K loop
  /// (programScalars).
  int64_t programScalars = 0;
  int64_t otherBytes = 0; // output and epilogue buffers
  /// A block-scaled contraction: K in blocks of `scaleBlock`, each block's
  /// sum scaled (block_k divides it; 0: none).
  int64_t scaleBlock = 0;
  /// Attention: m queries, n the head dimension of the values, k keys;
  /// `scoreK` the head dimension of the scores' contraction (0: none).
  bool attention = false;
  /// Attention over dynamic query rows (m is the size's hint): one way,
  /// no packed heads. Dynamic keys (k the hint) take either.
  bool dynamicRows = false;
  /// Attention over a dynamic number of keys: the schedules are the same
  /// at every size of its range (buckets choose among them by cost).
  bool dynamicKeys = false;
  /// Attention over a dynamic number of batch rows (sequences, or heads):
  /// the grid is computed from the sizes; one way.
  bool dynamicBatch = false;
  int64_t scoreK = 0;
  /// Attention: the range of key - row its masks leave visible.
  std::optional<int64_t> windowLower, windowUpper;
  /// Attention with fewer than 16 queries (a decode step): the query heads
  /// that share a K/V head, when the innermost batch row reaches K and V
  /// only through `head floordiv c` with c a multiple of it (grouped-query
  /// attention; every head for multi-query attention); else 1.
  int64_t group = 1;
  /// Attention: bytes of a K or V element in memory.
  int64_t valueBytes = 4;

  /// Whether programs of `blockM` rows hold a group's heads for every
  /// query (K and V then read once per group).
  bool packsHeads(int64_t blockM) const {
    return attention && group > 1 && group * m <= blockM;
  }
  /// Attention: the programs of blocks of `blockM` query rows (of a group's
  /// heads when packed).
  int64_t rowPrograms(int64_t blockM) const {
    return packsHeads(blockM) ? batch / group
                              : batch * ((m + blockM - 1) / blockM);
  }
};

/// A contraction's structure: the output loops i and j (the innermost two
/// rows) and, per fold, its product's operands a(i, k) and b(k, j)
/// (16-bit operands widened only for the product taken narrow).
struct Contraction {
  mutable loop::ParallelOp i, j;
  struct Product {
    mutable loop::FoldOp fold;
    mlir::Value a, b;
    /// A block-scaled contraction: the sum over K blocks whose body scales
    /// `fold` (the sum over one block's k) by its block's factors.
    mutable loop::FoldOp blocks;
  };
  llvm::SmallVector<Product> products;
  /// Attention: out(i, j) from an online fold over keys of scores s(i, key)
  /// and weights g(key, j); `score` the contraction in the scores, if any
  /// (its product a(i, kk) * b(key, kk) in `scoreProduct`).
  mutable loop::OnlineFoldOp online;
  mutable loop::FoldOp score;
  Product scoreProduct;
};

/// Whether `v` is computed from a load at an index that is itself read
/// from memory at indices using one of `ivs` (per batch: a grouped GEMM's
/// expert; per row: its rows gathered by sorted pair ids).
bool indexedThroughLoad(mlir::Value v, const llvm::DenseSet<mlir::Value> &ivs);

/// The values a contraction's operands are computed from that depend on
/// no output index and no K index (nor, block-scaled, the block's) and
/// are not constants, each the first such value on its path from an
/// operand (what it is computed from is not listed again): the same for
/// a whole program (a grouped GEMM's group and first row,
/// read from memory), computed once before its K loop.
llvm::SmallVector<mlir::Value> programScalars(const Contraction &c);

/// The keys an attention row can see: every score whose key - row lies
/// outside [lower, upper] is -inf (a causal mask bounds it above, a sliding
/// window below); unset, unbounded.
struct KeyWindow {
  std::optional<int64_t> lower, upper;
};
KeyWindow keyWindow(const Contraction &c);

/// The keys a block of `rows` query rows from `row0` visits, [start, end):
/// those its window shows, `start` rounded down to a block of `blockK`.
std::pair<int64_t, int64_t> keyRange(const KeyWindow &w, int64_t row0,
                                     int64_t rows, int64_t keys,
                                     int64_t blockK);

/// The contraction of a kernel whose nest is one; an error at what Tile IR
/// cannot express.
mlir::FailureOr<Contraction> analyzeContraction(loop::KernelOp kernel,
                                                const RowNest &nest);

struct KernelFacts {
  bool contraction = false;
  RowFacts row;
  DotFacts dot;

  /// What the schedules' resource needs depend on.
  tile::ScheduleShape shape() const;
  /// The facts as JSON, for reports and tuners.
  llvm::json::Object toJSON() const;
};

/// Whether `v` is (computed from) one of `values`, through region-free ops.
bool dependsOn(mlir::Value v, const llvm::DenseSet<mlir::Value> &values);

/// The row nest of `kernel`; an error at the op Tile IR cannot express.
mlir::FailureOr<RowNest> analyzeRowNest(loop::KernelOp kernel);

/// The facts of `kernel` (its nest analyzed by analyzeRowNest); when the
/// kernel is a contraction and `contraction` is given, its analysis too.
/// `fastMath`: count math as the fast-math expansion builds it.
mlir::FailureOr<KernelFacts>
computeKernelFacts(loop::KernelOp kernel, const RowNest &nest,
                   Contraction *contraction = nullptr, bool fastMath = false);
mlir::FailureOr<KernelFacts> computeKernelFacts(loop::KernelOp kernel,
                                                bool fastMath = false);

} // namespace xtile

#endif // XTILE_CONVERSION_LOOPTOTILE_KERNELFACTS_H
