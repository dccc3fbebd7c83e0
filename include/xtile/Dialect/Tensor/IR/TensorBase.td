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
  let useDefaultAttributePrinterParser = 1;
  // Checks `xtensor.symbols` on functions.
  let hasOperationAttrVerify = 1;
  // Checks `xtensor.in_place` on function arguments.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

// Every symbol naming a dynamic size of an operand or result is declared in
// the enclosing function's `xtensor.symbols`.
def XTensor_DeclaredSymbols : NativeOpTrait<"DeclaredSymbols"> {
  let cppNamespace = "::xtile::tensor";
}

class XTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<XTensor_Dialect, mnemonic,
         !listconcat(traits, [XTensor_DeclaredSymbols])>;

//===----------------------------------------------------------------------===//
// Type constraints: ranked tensors whose sizes are static or named by
// symbols (#xtensor.dims, see TensorAttributes.td).
//===----------------------------------------------------------------------===//

class XTensor_TensorOf<list<Type> elems>
    : Type<And<[RankedTensorOf<elems>.predicate,
                CPred<"::xtile::tensor::isXTensorType($_self)">]>,
           "ranked tensor of " # AnyTypeOf<elems>.summary #
           " values whose dynamic sizes are named (#xtensor.dims)",
           "::mlir::RankedTensorType">;

defvar XTensor_FloatElems = [F16, BF16, F32, F64];
defvar XTensor_IntElems = [I32, I64];
// fp8 elements are storage types: they are cast, moved and selected, and
// widened to compute (as PyTorch, which has no fp8 arithmetic either).
defvar XTensor_Fp8Elems = [F8E4M3FN, F8E5M2];
// So are 8- and 16-bit integers: a graph's uint8, int8 and int16 inputs
// and results, computed in i32 (a cast sign-extends and truncates).
defvar XTensor_NarrowIntElems = [I8, I16];
defvar XTensor_AllElems =
    !listconcat([F16, BF16, F32, F64, I1, I32, I64], XTensor_Fp8Elems,
                XTensor_NarrowIntElems);

def XTensor_AnyTensor : XTensor_TensorOf<XTensor_AllElems>;
def XTensor_FloatTensor : XTensor_TensorOf<XTensor_FloatElems>;
def XTensor_NumericTensor
    : XTensor_TensorOf<!listconcat(XTensor_FloatElems, XTensor_IntElems)>;
def XTensor_MatmulOperand
    : XTensor_TensorOf<!listconcat(XTensor_FloatElems, XTensor_IntElems,
                                   XTensor_Fp8Elems)>;
def XTensor_LogicalTensor : XTensor_TensorOf<[I1, I32, I64]>;
def XTensor_BoolTensor : XTensor_TensorOf<[I1]>;
def XTensor_IndexTensor : XTensor_TensorOf<[I32, I64]>;

#endif // XTILE_DIALECT_TENSOR_IR_TENSORBASE_TD
