include "mlir/IR/OpBase.td"
include "xtile/Dialect/Tensor/IR/TensorBase.td"
