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
//             waiting for the consumers to release it.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "xtile/Conversion/TileToKernel/TileToKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
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
  Release
};

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
           "(mutation=fragment|swizzle|panel|overlap|round|parity|release)";
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
            .Default(std::nullopt);
    if (!m) {
      getOperation().emitError("unknown test-mutate '") << mutation << "'";
      return signalPassFailure();
    }
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
