#include "xtile/Dialect/Loop/IR/LoopOps.h"
