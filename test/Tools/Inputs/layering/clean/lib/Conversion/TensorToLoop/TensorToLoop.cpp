#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "mlir/IR/PatternMatch.h"
