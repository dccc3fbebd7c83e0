//===- LoopBase.td - xloop dialect definition -------------*- tablegen -*-===//
//
// Loop IR: kernels as iteration spaces with scalar bodies; fusion happens
// here.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_LOOP_IR_LOOPBASE_TD
#define XTILE_DIALECT_LOOP_IR_LOOPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def XLoop_Dialect : Dialect {
  let name = "xloop";
  let cppNamespace = "::xtile::loop";
  let summary = "Loop IR: kernels as loop nests over scalar bodies";
  let description = [{
    `xloop` is the second level of the xtile stack. A program is a function
    that launches kernels (`xloop.launch`) on tensors; each kernel
    (`xloop.kernel`, a symbol) is a nest of parallel loops and folds over
    scalar bodies written in upstream `arith` and `math`, reading its
    input buffers and writing its output buffers through `xloop.load` and
    `xloop.store`. Index arithmetic is `affine.apply`, so transposes,
    broadcasts, slices and reshapes of contiguous data are index
    expressions, not copies.

    Fusion aligns iteration spaces: a producer kernel is inlined into its
    consumer at the consumer's loads, and a fold that depends only on outer
    indices is hoisted to the loop it depends on, so RMSNorm is one kernel
    whose row loop holds the row's fold and then the row's elementwise
    scaling.

    ```mlir
    xloop.kernel @scale(%x: memref<4x8xf32>) -> (%y: memref<4x8xf32>) {
      xloop.parallel %i = 0 to 4 {
        xloop.parallel %j = 0 to 8 {
          %v = xloop.load %x[%i, %j] : memref<4x8xf32>
          %two = arith.constant 2.0 : f32
          %r = arith.mulf %v, %two : f32
          xloop.store %r, %y[%i, %j] : memref<4x8xf32>
        }
      }
    }
    func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %b = xloop.launch @scale(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      return %b : tensor<4x8xf32>
    }
    ```
  }];
  let hasOperationAttrVerify = 1;
  // `xloop.identity` on an `xloop.kernel`: the hash of its body that
  // --xloop-dedupe compares (and kernel caches key on).
  let discardableAttrs = (ins "::mlir::StringAttr":$identity);
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::func::FuncDialect"];
}

def XLoop_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat], "integer or float scalar">;

class XLoop_Op<string mnemonic, list<Trait> traits = []>
    : Op<XLoop_Dialect, mnemonic, traits>;

def XLoop_CombineKind : I32EnumAttr<"CombineKind", "fold combine operation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"And", 4, "and">, I32EnumAttrCase<"Or", 5, "or">]> {
  let cppNamespace = "::xtile::loop";
}

#endif // XTILE_DIALECT_LOOP_IR_LOOPBASE_TD
