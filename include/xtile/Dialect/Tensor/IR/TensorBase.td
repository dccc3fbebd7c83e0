//===- TensorBase.td - xtensor dialect definition ---------*- tablegen -*-===//
//
// The Tensor IR dialect: atomic, NumPy-like tensor ops in SSA form, the top
// level of the xtile stack.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TENSOR_IR_TENSORBASE_TD
#define XTILE_DIALECT_TENSOR_IR_TENSORBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def XTensor_Dialect : Dialect {
  let name = "xtensor";
  let cppNamespace = "::xtile::tensor";
  let summary = "Tensor IR: atomic NumPy-like ops on ranked tensors";
  let description = [{
    `xtensor` is the top level of the xtile stack. Programs are functions
    over builtin ranked tensors whose ops form a small, closed set of atomic
    operations (elementwise math, comparisons, reductions, data movement,
    batched matmul) plus composite ops that mirror PyTorch (`rms_norm`,
    `softmax`, ...). `--xtensor-decompose` rewrites every composite into
    atomic ops and `--xtensor-normalize` puts the result in a canonical form,
    so that programs that compute the same thing print the same text.

    Broadcasting is always explicit (`xtensor.broadcast`); binary ops take
    operands of identical type.

    ```mlir
    func.func @scale(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %two = xtensor.constant dense<2.0> : tensor<4x8xf32>
      %y = xtensor.mul %x, %two : tensor<4x8xf32>
      return %y : tensor<4x8xf32>
    }
    ```
  }];
  let hasConstantMaterializer = 1;
}

class XTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<XTensor_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints. Shapes are static for now; the constraints below are the
// single place to relax when dynamic dimensions are added.
//===----------------------------------------------------------------------===//

defvar XTensor_FloatElems = [F16, BF16, F32, F64];
defvar XTensor_IntElems = [I32, I64];
defvar XTensor_AllElems = [F16, BF16, F32, F64, I1, I32, I64];

def XTensor_AnyTensor : StaticShapeTensorOf<XTensor_AllElems>;
def XTensor_FloatTensor : StaticShapeTensorOf<XTensor_FloatElems>;
def XTensor_NumericTensor
    : StaticShapeTensorOf<!listconcat(XTensor_FloatElems, XTensor_IntElems)>;
def XTensor_LogicalTensor : StaticShapeTensorOf<[I1, I32, I64]>;
def XTensor_BoolTensor : StaticShapeTensorOf<[I1]>;
def XTensor_IndexTensor : StaticShapeTensorOf<[I32, I64]>;

#endif // XTILE_DIALECT_TENSOR_IR_TENSORBASE_TD
