#include "xtile/Dialect/Loop/IR/LoopOps.h"
// A comment that names an include is no edge:
// #include "xtile/Dialect/Tile/IR/TileOps.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
