// Tools may use any library.
#include "runtime/Driver.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
