//===- TensorDialect.h - xtensor dialect ------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TENSOR_IR_TENSORDIALECT_H
#define XTILE_DIALECT_TENSOR_IR_TENSORDIALECT_H

#include "mlir/IR/Dialect.h"

#include "xtile/Dialect/Tensor/IR/TensorDialect.h.inc"

#endif // XTILE_DIALECT_TENSOR_IR_TENSORDIALECT_H
