//===- InitAllPasses.h - register xtile's passes ----------------*- C++ -*-===//

#ifndef XTILE_INITALLPASSES_H
#define XTILE_INITALLPASSES_H

#include "xtile/Conversion/Passes.h"
#include "xtile/Dialect/Kernel/Transforms/Passes.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"
#include "xtile/Dialect/Tile/Transforms/Passes.h"
#include "xtile/Pipelines/Pipelines.h"

namespace xtile {

/// Registers every xtile pass and pipeline (`--lower-to-loop`, ...) with
/// the global pass registry, so that `*-opt` and textual pipelines can name
/// them.
inline void registerAllPasses() {
  tensor::registerXTensorPasses();
  loop::registerXLoopPasses();
  tile::registerXTilePasses();
  kernel::registerXKernelPasses();
  registerXTileConversionPasses();
  registerPipelines();
}

} // namespace xtile

#endif // XTILE_INITALLPASSES_H
