//===- Passes.td - xtensor passes -------------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_TD
#define XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def XTensorDecompose : Pass<"xtensor-decompose"> {
  let summary = "Rewrite composite xtensor ops into atomic ones";
  let description = [{
    Replaces every composite op (`rms_norm`, `layer_norm`, `softmax`,
    `log_softmax`, `gelu`, `silu`, `mean`, `var`, `linear`) by the atomic
    ops that define it, computed in the element type of the input. Means
    become a sum and a division by the element count; reductions keep their
    dimensions (`keepdim`) and are broadcast back explicitly; `linear`'s
    `[out, in]` weight becomes an explicit transpose feeding a matmul, with
    leading dimensions of the input flattened around it.

    A composite that cannot be decomposed is an error at its location.

    ```mlir
    %y = xtensor.softmax %x dim 1 : tensor<4x8xf32>
    // becomes
    %m = xtensor.reduce max %x dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    %mb = xtensor.broadcast %m : tensor<4x1xf32> -> tensor<4x8xf32>
    %d = xtensor.sub %x, %mb : tensor<4x8xf32>
    %e = xtensor.exp %d : tensor<4x8xf32>
    %s = xtensor.reduce sum %e dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    %sb = xtensor.broadcast %s : tensor<4x1xf32> -> tensor<4x8xf32>
    %y = xtensor.div %e, %sb : tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["::xtile::tensor::XTensorDialect"];
}

def XTensorNormalize : Pass<"xtensor-normalize"> {
  let summary = "Put Tensor IR in canonical form";
  let description = [{
    Brings every function to one canonical text, so that programs computing
    the same values the same way print identically and identical kernels
    can be recognised later:

    1. exact folding: constant folding of correctly rounded operations,
       exact identities (`x * 1`, `x + -0.0`, `neg(neg(x))`, integer
       `x - x`, ...) and composition of consecutive transposes, reshapes
       and broadcasts; dead code is removed;
    2. a canonical operand order for commutative ops (`add mul max min and
       or xor`): constants last, otherwise by a structural hash of the
       operand's whole expression, which ignores SSA names, locations and
       the order of commutative operands below it;
    3. common subexpression elimination;
    4. a canonical op order: a depth-first walk from the returned values,
       operands in order, so that the order in which a program was written
       does not show.

    Rewrites that can change a floating-point result run only with
    `fast-math=true`: `x - x -> 0`, `x * 0 -> 0`, `x + 0.0 -> x`, division
    by a constant into multiplication by its reciprocal, and
    reassociation of constants (`(x + c1) + c2 -> x + (c1 + c2)`, same for
    `*`).
  }];
  let options = [
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Allow rewrites that may change floating-point results">,
  ];
  let dependentDialects = ["::xtile::tensor::XTensorDialect"];
}

def XTensorSpecializeDims
    : Pass<"xtensor-specialize-dims", "::mlir::ModuleOp"> {
  let summary = "Bind dynamic sizes to given values";
  let description = [{
    Replaces the symbols named in `sizes` (`SYMBOL=SIZE`) by those sizes in
    every type of every function that declares them in `xtensor.symbols`,
    and removes them from the declaration. A size outside the declared
    range, or a symbol that no function declares, is an error. Slices keep
    a specialized dimension whole: their limit -1 becomes the size.

    ```mlir
    // --xtensor-specialize-dims="sizes=T=7"
    func.func @f(%x: tensor<?x64xf32, #xtensor.dims<T>>) -> ...
        attributes {xtensor.symbols = {T = array<i64: 1, 4096>}}
    // becomes
    func.func @f(%x: tensor<7x64xf32>) -> ...
    ```
  }];
  let options = [
    ListOption<"sizes", "sizes", "std::string",
               "SYMBOL=SIZE bindings, comma-separated">,
  ];
  let dependentDialects = ["::xtile::tensor::XTensorDialect"];
}

#endif // XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_TD
