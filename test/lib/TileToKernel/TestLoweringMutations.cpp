//===- TestLoweringMutations.cpp - break the Tile-to-Kernel lowering ------===//
//
// `--test-convert-xtile-to-xkernel-mutated="mutation=NAME"`: the lowering of
// --convert-xtile-to-xkernel with one of its choices overridden
// (LoweringOverrides) to break it on purpose. The mutation tests run it (and
// `--lower-to-kernel="test-mutate=NAME"`, which uses it) to show that the
// emulation, the PTX path and the CuTe oracle catch a wrong layout or
// order. Mutations:
//   fragment  mma.sync: a B fragment's two registers swapped;
//   swizzle   operand tiles staged unswizzled but read swizzled, and TMA
//             tensor maps unswizzled;
//   panel     wgmma's descriptor of an N-major B one atom short of its
//             panel stride;
//   overlap   copies one stage further ahead while wgmma groups stay in
//             flight;
//   round     wgmma's tf32 operands left unrounded in shared memory;
//   parity    the TMA wait for the other phase parity, which does not wait;
//   release   a warp-specialized producer copies into a stage without
//             waiting for the consumers to release it;
// and three of the Tile IR, before it is lowered: two of block-scaled
// contractions,
//   scale-block  each K step reads the next block's scales;
//   scale-order  each step's sum is added to the total before the scales
//                multiply it (the total rescaled every step);
// and one of values dequantized from fp8 in a loop (an fp8 KV cache in
// attention),
//   kv-scale     each key's (or row's) scale read at the next one's index;
// and one of a result written in place of an argument (a KV cache append),
//   in-place     the stores into an output that updates an operand lose
//                their conditions (every element inside the tensor
//                written, not only the changed ones).
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "xtile/Conversion/TileToKernel/TileToKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace {

enum class Mutation {
  Fragment,
  Swizzle,
  Panel,
  Overlap,
  Round,
  Parity,
  Release,
  ScaleBlock,
  ScaleOrder,
  KvScale,
  InPlace,
  Accumulate
};

/// The K loops of block-scaled contractions: each step's dot starts from a
/// zero tile, and the total is the loop's carried value plus that dot's
/// sum scaled (ContractionLowering).
static void mutateBlockScales(ModuleOp module, Mutation m) {
  module.walk([&](xtile::tile::DotOp dot) {
    auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
    if (!loop || isa<BlockArgument>(dot.getAcc()))
      return;
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (OpOperand &carried : yield->getOpOperands()) {
      auto add = carried.get().getDefiningOp<arith::AddFOp>();
      Value total = loop.getRegionIterArgs()[carried.getOperandNumber()];
      if (!add || add.getLhs() != total)
        continue;
      if (m == Mutation::ScaleOrder) {
        // (total + sum) * scales.
        dot.getAccMutable().assign(total);
        add.getResult().replaceAllUsesWith(add.getRhs());
        return;
      }
      // The block index, k / block, becomes (k / block + 1) % blocks.
      loop.getBody()->walk([&](arith::DivUIOp div) {
        IntegerAttr block, upper;
        if (div.getLhs() != loop.getInductionVar() ||
            !matchPattern(div.getRhs(), m_Constant(&block)) ||
            !matchPattern(loop.getUpperBound(), m_Constant(&upper)))
          return;
        OpBuilder b(div->getNextNode());
        Location loc = div.getLoc();
        Value one = arith::ConstantIndexOp::create(b, loc, 1);
        Value blocks = arith::ConstantIndexOp::create(
            b, loc, upper.getInt() / block.getInt());
        Value next = arith::RemUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, div, one), blocks);
        // Only where the scales are read: not the operands' indices.
        Operation *increment = next.getDefiningOp()->getOperand(0).getDefiningOp();
        div.getResult().replaceUsesWithIf(next, [&](OpOperand &use) {
          if (use.getOwner() == increment)
            return false;
          SetVector<Operation *> slice;
          getForwardSlice(use.getOwner(), &slice);
          return llvm::none_of(slice, [&](Operation *op) {
            return isa<xtile::tile::DotOp>(op) && op->getBlock() == loop.getBody();
          });
        });
      });
      return;
    }
  });
}

/// Launches that update an operand in place: the stores of their kernels'
/// outputs write every lane inside the tensor, their conditions dropped.
static void mutateInPlaceStores(ModuleOp module) {
  SymbolTable symbols(module);
  module.walk([&](xtile::tile::LaunchOp launch) {
    std::optional<ArrayRef<int64_t>> updates = launch.getUpdates();
    auto kernel = symbols.lookup<xtile::tile::KernelOp>(launch.getKernel());
    if (!updates || !kernel)
      return;
    kernel.walk([&](xtile::tile::StoreOp store) {
      // `andi(inside, changed)` (Loop-to-Tile's form) keeps `inside`.
      Value mask = store.getMask();
      if (!mask)
        return;
      if (auto both = mask.getDefiningOp<arith::AndIOp>())
        store.getMaskMutable().assign(both.getLhs());
      else
        store.getMaskMutable().clear();
    });
  });
}

/// Accumulating stores (a scatter-add's atomics) as plain stores: of the
/// writes that meet at one element, one survives.
static void mutateAccumulatingStores(ModuleOp module) {
  module.walk([](xtile::tile::StoreOp store) { store.setAccumulate(false); });
}

/// fp8 values dequantized in a loop, `extf(fp8 tile) * scales`: the scales'
/// load reads, along each index tile it shares with the fp8 load, the next
/// index (wrapping around the dimension).
static void mutateDequantScales(ModuleOp module) {
  module.walk([&](arith::MulFOp mul) {
    if (!mul->getParentOfType<scf::ForOp>())
      return;
    for (auto [x, y] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      auto ext = x.getDefiningOp<arith::ExtFOp>();
      auto values = ext ? ext.getIn().getDefiningOp<xtile::tile::LoadOp>()
                        : xtile::tile::LoadOp();
      auto scales = y.getDefiningOp<xtile::tile::LoadOp>();
      if (!values || !scales ||
          !xtile::isFp8(getElementTypeOrSelf(values.getType())))
        continue;
      auto buffer = cast<MemRefType>(scales.getBuffer().getType());
      OpBuilder b(scales);
      Location loc = scales.getLoc();
      for (auto [d, index] : llvm::enumerate(scales.getIndices())) {
        auto tile = dyn_cast<RankedTensorType>(index.getType());
        if (!tile || !llvm::is_contained(values.getIndices(), index))
          continue;
        auto splat = [&](int64_t v) -> Value {
          return xtile::tile::SplatOp::create(
              b, loc, tile, arith::ConstantIndexOp::create(b, loc, v));
        };
        Value next = arith::RemUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, index, splat(1)),
            splat(buffer.getDimSize(d)));
        scales->setOperand(1 + d, next);
      }
      return;
    }
  });
}

struct Mutated : xtile::LoweringOverrides {
  explicit Mutated(Mutation m) : m(m) {}
  bool swapBFragmentRegisters() const override {
    return m == Mutation::Fragment;
  }
  bool swizzleStagedWrites() const override { return m != Mutation::Swizzle; }
  int64_t tensorMapSwizzle(int64_t swizzle) const override {
    return m == Mutation::Swizzle ? 0 : swizzle;
  }
  int64_t wgmmaPanelStride(int64_t stride) const override {
    // One 1024-byte swizzle atom short.
    return m == Mutation::Panel ? stride - 1024 : stride;
  }
  int64_t copiesAhead(int64_t stages, bool overlap) const override {
    if (m == Mutation::Overlap)
      return stages - 1;
    return LoweringOverrides::copiesAhead(stages, overlap);
  }
  bool roundTf32InShared() const override { return m != Mutation::Round; }
  bool waitForCopiesPhase() const override { return m != Mutation::Parity; }
  bool producerWaitsForRelease() const override {
    return m != Mutation::Release;
  }
  Mutation m;
};

struct TestMutatedLowering
    : PassWrapper<TestMutatedLowering, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestMutatedLowering)

  TestMutatedLowering() = default;
  TestMutatedLowering(const TestMutatedLowering &other) : PassWrapper(other) {}

  StringRef getArgument() const final {
    return "test-convert-xtile-to-xkernel-mutated";
  }
  StringRef getDescription() const final {
    return "For tests only: --convert-xtile-to-xkernel broken on purpose "
           "(mutation=fragment|swizzle|panel|overlap|round|parity|release|"
           "scale-block|scale-order|kv-scale|in-place)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<xtile::kernel::XKernelDialect, arith::ArithDialect,
                math::MathDialect, scf::SCFDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    std::optional<Mutation> m =
        llvm::StringSwitch<std::optional<Mutation>>(mutation)
            .Case("fragment", Mutation::Fragment)
            .Case("swizzle", Mutation::Swizzle)
            .Case("panel", Mutation::Panel)
            .Case("overlap", Mutation::Overlap)
            .Case("round", Mutation::Round)
            .Case("parity", Mutation::Parity)
            .Case("release", Mutation::Release)
            .Case("scale-block", Mutation::ScaleBlock)
            .Case("scale-order", Mutation::ScaleOrder)
            .Case("kv-scale", Mutation::KvScale)
            .Case("in-place", Mutation::InPlace)
            .Case("accumulate", Mutation::Accumulate)
            .Default(std::nullopt);
    if (!m) {
      getOperation().emitError("unknown test-mutate '") << mutation << "'";
      return signalPassFailure();
    }
    if (*m == Mutation::ScaleBlock || *m == Mutation::ScaleOrder)
      mutateBlockScales(getOperation(), *m);
    if (*m == Mutation::KvScale)
      mutateDequantScales(getOperation());
    if (*m == Mutation::InPlace)
      mutateInPlaceStores(getOperation());
    if (*m == Mutation::Accumulate)
      mutateAccumulatingStores(getOperation());
    if (failed(xtile::lowerTileModule(getOperation(), Mutated(*m))))
      signalPassFailure();
  }

  Option<std::string> mutation{*this, "mutation",
                               llvm::cl::desc("The mutation to apply")};
};

} // namespace

void xtile::test::registerTestMutatedLowering() {
  PassRegistration<TestMutatedLowering>();
}
