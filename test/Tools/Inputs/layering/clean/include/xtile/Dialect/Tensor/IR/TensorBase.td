include "mlir/IR/OpBase.td"
