//===- TensorAttributes.td - xtensor enums and attributes -*- tablegen -*-===//

#ifndef XTILE_DIALECT_TENSOR_IR_TENSORATTRIBUTES_TD
#define XTILE_DIALECT_TENSOR_IR_TENSORATTRIBUTES_TD

include "xtile/Dialect/Tensor/IR/TensorBase.td"
include "mlir/IR/EnumAttr.td"
include "xtile/Support/SymbolicDims.td"

// Plain integer-backed enums: ops print them as bare keywords
// (`xtensor.reduce sum ...`, `xtensor.cmp lt, ...`), as upstream arith does.

def XTensor_ReduceKind : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"prod", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"any", 4>, I32EnumAttrCase<"all", 5>]> {
  let cppNamespace = "::xtile::tensor";
}
def XTensor_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::xtile::tensor";
}
def XTensor_GeluApproximation
    : I32EnumAttr<"GeluApproximation", "GELU formulation", [
        I32EnumAttrCase<"erf", 0>, I32EnumAttrCase<"tanh", 1>]> {
  let cppNamespace = "::xtile::tensor";
}

def XTensor_DimsAttr : AttrDef<XTensor_Dialect, "Dims",
                               [XTile_SymbolicDimsAttrInterface]> {
  let mnemonic = "dims";
  let summary = "the symbols naming the dynamic sizes of a tensor type";
  let description = [{
    The encoding of a tensor type with dynamic sizes: one symbol per `?`,
    in order. Equal symbols are equal sizes, so the type system checks
    what PyTorch checks at run time: `xtensor.add` of `tensor<?x64xf32,
    #xtensor.dims<T>>` and `tensor<?x64xf32, #xtensor.dims<S>>` is an
    error, as is a matmul contracting `K` against `N`. Each symbol is bound
    by a dimension of a function argument and declared, with its range, in
    the function's `xtensor.symbols` attribute:

    ```mlir
    func.func @norm(%x: tensor<?x4096xf32, #xtensor.dims<T>>)
        -> tensor<?x4096xf32, #xtensor.dims<T>>
        attributes {xtensor.symbols = {T = array<i64: 1, 8192>}}
    ```

    Types without dynamic sizes carry no encoding.
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::StringAttr">:$symbols);
  let hasCustomAssemblyFormat = 1;
}

#endif // XTILE_DIALECT_TENSOR_IR_TENSORATTRIBUTES_TD
