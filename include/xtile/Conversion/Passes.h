//===- Passes.h - xtile conversion passes -----------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_PASSES_H
#define XTILE_CONVERSION_PASSES_H

#include "xtile/Conversion/KernelToGPU/KernelToGPU.h"
#include "xtile/Conversion/LinalgToTensor/LinalgToTensor.h"
#include "xtile/Conversion/TosaToTensor/TosaToTensor.h"
#include "xtile/Conversion/LoopToTile/LoopToTile.h"
#include "xtile/Conversion/TensorToLoop/TensorToLoop.h"
#include "xtile/Conversion/TileToKernel/TileToKernel.h"

namespace xtile {

#define GEN_PASS_REGISTRATION
#include "xtile/Conversion/Passes.h.inc"

} // namespace xtile

#endif // XTILE_CONVERSION_PASSES_H
