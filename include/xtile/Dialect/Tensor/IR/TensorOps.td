//===- TensorOps.td - xtensor operations ------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_TENSOR_IR_TENSOROPS_TD
#define XTILE_DIALECT_TENSOR_IR_TENSOROPS_TD

include "xtile/Dialect/Tensor/IR/TensorBase.td"
include "xtile/Dialect/Tensor/IR/TensorAttributes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// All elementwise ops share one verifier (identical shapes, with messages
// naming the operands) and infer their result type from their first value
// operand, so that passes can create them without spelling result types.
class XTensor_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : XTensor_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  let hasVerifier = 1;
  string inferredOperand = "0";
  string inferredElementType = "";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::xtile::tensor::detail::verifyElementwiseOp(getOperation());
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, ::std::optional<::mlir::Location>,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      ::mlir::Type type = adaptor.getOperands()[}] # inferredOperand # [{].getType();
      ::mlir::Type elementType = }] # !if(!empty(inferredElementType),
          "nullptr", inferredElementType) # [{;
      types.push_back(::xtile::tensor::detail::withElementType(type, elementType));
      return ::mlir::success();
    }
  }];
}

class XTensor_UnaryOp<string mnemonic, TypeConstraint type, string formula,
                      list<Trait> traits = []>
    : XTensor_ElementwiseOp<mnemonic, traits> {
  let summary = "elementwise " # formula;
  let description = [{
    Computes `}] # formula # [{` for every element of `input`. The result
    has the type of the operand.

    ```mlir
    %y = xtensor.}] # mnemonic # [{ %x : tensor<4x1000xf32>
    ```
  }];
  let arguments = (ins type:$input);
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class XTensor_FoldedUnaryOp<string mnemonic, TypeConstraint type,
                            string formula>
    : XTensor_UnaryOp<mnemonic, type, formula> {
  let hasFolder = 1;
}

def XTensor_NegOp : XTensor_FoldedUnaryOp<"neg", XTensor_NumericTensor, "-x">;
def XTensor_AbsOp : XTensor_FoldedUnaryOp<"abs", XTensor_NumericTensor, "|x|">;
def XTensor_ExpOp : XTensor_UnaryOp<"exp", XTensor_FloatTensor, "e^x">;
def XTensor_Exp2Op : XTensor_UnaryOp<"exp2", XTensor_FloatTensor, "2^x">;
def XTensor_LogOp : XTensor_UnaryOp<"log", XTensor_FloatTensor, "ln(x)">;
def XTensor_Log2Op : XTensor_UnaryOp<"log2", XTensor_FloatTensor, "log2(x)">;
def XTensor_SqrtOp : XTensor_UnaryOp<"sqrt", XTensor_FloatTensor, "sqrt(x)">;
def XTensor_RsqrtOp : XTensor_UnaryOp<"rsqrt", XTensor_FloatTensor, "1/sqrt(x)">;
def XTensor_ReciprocalOp
    : XTensor_UnaryOp<"reciprocal", XTensor_FloatTensor, "1/x">;
def XTensor_SinOp : XTensor_UnaryOp<"sin", XTensor_FloatTensor, "sin(x)">;
def XTensor_CosOp : XTensor_UnaryOp<"cos", XTensor_FloatTensor, "cos(x)">;
def XTensor_TanhOp : XTensor_UnaryOp<"tanh", XTensor_FloatTensor, "tanh(x)">;
def XTensor_ErfOp : XTensor_UnaryOp<"erf", XTensor_FloatTensor, "erf(x)">;
def XTensor_ErfcOp
    : XTensor_UnaryOp<"erfc", XTensor_FloatTensor, "erfc(x) = 1 - erf(x)">;
def XTensor_SigmoidOp
    : XTensor_UnaryOp<"sigmoid", XTensor_FloatTensor, "1/(1+e^-x)">;
def XTensor_FloorOp
    : XTensor_FoldedUnaryOp<"floor", XTensor_FloatTensor, "floor(x)">;
def XTensor_CeilOp : XTensor_FoldedUnaryOp<"ceil", XTensor_FloatTensor, "ceil(x)">;
def XTensor_NotOp : XTensor_FoldedUnaryOp<"not", XTensor_LogicalTensor,
                                          "~x (logical not for i1)">;

def XTensor_CastOp : XTensor_Op<"cast", [Pure]> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Converts every element to the element type of the result, which has the
    shape of the operand. Float to float rounds to nearest even; float to
    integer truncates toward zero; integer to float rounds to nearest even;
    i1 converts to 0 or 1 and anything converts to i1 as `x != 0`.

    ```mlir
    %y = xtensor.cast %x : tensor<4x8xbf16> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

class XTensor_BinaryOp<string mnemonic, TypeConstraint type, string formula,
                       list<Trait> traits = []>
    : XTensor_ElementwiseOp<mnemonic, traits> {
  let summary = "elementwise " # formula;
  let description = [{
    Computes `}] # formula # [{` elementwise. Both operands have the same
    type, which is also the type of the result: broadcasting is explicit
    (`xtensor.broadcast`).

    ```mlir
    %z = xtensor.}] # mnemonic # [{ %x, %y : tensor<4x1000xf32>
    ```
  }];
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` custom<SameType>(type($lhs), type($rhs))
  }];
  let hasFolder = 1;
}

def XTensor_AddOp
    : XTensor_BinaryOp<"add", XTensor_NumericTensor, "x + y", [Commutative]>;
def XTensor_SubOp : XTensor_BinaryOp<"sub", XTensor_NumericTensor, "x - y">;
def XTensor_MulOp
    : XTensor_BinaryOp<"mul", XTensor_NumericTensor, "x * y", [Commutative]>;
def XTensor_DivOp : XTensor_BinaryOp<"div", XTensor_NumericTensor,
    "x / y (integers: truncating toward zero)">;
def XTensor_RemOp : XTensor_BinaryOp<"rem", XTensor_NumericTensor,
    "x rem y (the sign of x, as C fmod)">;
def XTensor_PowOp : XTensor_BinaryOp<"pow", XTensor_FloatTensor, "x ^ y">;
def XTensor_MaxOp : XTensor_BinaryOp<"max", XTensor_NumericTensor,
    "max(x, y) (NaN-propagating)", [Commutative]>;
def XTensor_MinOp : XTensor_BinaryOp<"min", XTensor_NumericTensor,
    "min(x, y) (NaN-propagating)", [Commutative]>;
def XTensor_AndOp
    : XTensor_BinaryOp<"and", XTensor_LogicalTensor, "x & y", [Commutative]>;
def XTensor_OrOp
    : XTensor_BinaryOp<"or", XTensor_LogicalTensor, "x | y", [Commutative]>;
def XTensor_XorOp
    : XTensor_BinaryOp<"xor", XTensor_LogicalTensor, "x ^ y", [Commutative]>;

def XTensor_CmpOp : XTensor_ElementwiseOp<"cmp"> {
  let summary = "elementwise comparison";
  let description = [{
    Compares the operands elementwise with the predicate (`eq ne lt le gt
    ge`) and returns an `i1` tensor of the same shape. Float comparisons are
    ordered (false when either side is NaN) except `ne`, which is true then.

    ```mlir
    %m = xtensor.cmp lt, %x, %y : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins XTensor_CmpPredicate:$predicate,
                   XTensor_NumericTensor:$lhs, XTensor_NumericTensor:$rhs);
  let results = (outs XTensor_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:`
    custom<SameType>(type($lhs), type($rhs))
  }];
  let inferredElementType = "::mlir::IntegerType::get(context, 1)";
  let hasFolder = 1;
}

def XTensor_SelectOp : XTensor_ElementwiseOp<"select"> {
  let summary = "elementwise choice between two tensors";
  let description = [{
    `select(cond, a, b)` is `a` where `cond` is true and `b` elsewhere.
    `cond` is an `i1` tensor of the shape of `a` and `b`; only the value
    type is written.

    ```mlir
    %z = xtensor.select %m, %x, %y : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins XTensor_BoolTensor:$cond, XTensor_AnyTensor:$true_value,
                   XTensor_AnyTensor:$false_value);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $cond `,` $true_value `,` $false_value attr-dict `:`
    custom<SelectTypes>(type($cond), type($true_value), type($false_value))
  }];
  let inferredOperand = "1";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

def XTensor_ConstantOp : XTensor_Op<"constant",
    [ConstantLike, Pure, InferTypeOpAdaptor]> {
  let summary = "a dense or splat tensor constant";
  let description = [{
    A tensor literal. Splat constants (`dense<2.0>`) stay compact whatever
    their shape.

    ```mlir
    %c = xtensor.constant dense<4.096000e+03> : tensor<4096x1xf32>
    %t = xtensor.constant dense<[1, 2, 3]> : tensor<3xi32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

def XTensor_IotaOp : XTensor_Op<"iota", [Pure]> {
  let summary = "the index along one dimension";
  let description = [{
    Every element is its own index along dimension `dim`.

    ```mlir
    %i = xtensor.iota dim 1 : tensor<4x8xi32>
    ```
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs XTensor_NumericTensor:$result);
  let assemblyFormat = "`dim` $dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def XTensor_ReduceOp : XTensor_Op<"reduce", [Pure, InferTypeOpAdaptor]> {
  let summary = "reduction over a list of dimensions";
  let description = [{
    Reduces `input` over `dims` (sorted, unique) with `kind`: `sum prod max
    min` on numbers, `any all` on `i1`. With `keepdim` the reduced
    dimensions stay with size 1, as in PyTorch. An empty `dims` is the
    identity.

    ```mlir
    %s = xtensor.reduce sum %x dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins XTensor_ReduceKind:$kind, XTensor_AnyTensor:$input,
                   DenseI64ArrayAttr:$dims, UnitAttr:$keepdim);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $kind $input `dims` $dims (`keepdim` $keepdim^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def XTensor_ReshapeOp : XTensor_Op<"reshape", [Pure]> {
  let summary = "reinterpretation of a tensor's elements in a new shape";
  let description = [{
    Row-major reshape: the result has the elements of `input` in the same
    order and the same element count.

    ```mlir
    %y = xtensor.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def XTensor_TransposeOp : XTensor_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permutation of dimensions";
  let description = [{
    Result dimension `i` is operand dimension `perm[i]`.

    ```mlir
    %y = xtensor.transpose %x perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $input `perm` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def XTensor_BroadcastOp : XTensor_Op<"broadcast", [Pure]> {
  let summary = "explicit broadcast to a larger shape";
  let description = [{
    PyTorch's `expand`: the operand's dimensions are aligned with the
    trailing dimensions of the result, and each is either 1 (repeated) or
    equal to the result's. Leading result dimensions are new.

    ```mlir
    %b = xtensor.broadcast %r : tensor<4096x1xf32> -> tensor<4096x4096xf32>
    %w2 = xtensor.broadcast %w : tensor<4096xf32> -> tensor<4096x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def XTensor_SliceOp : XTensor_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "strided slice";
  let description = [{
    Takes, in every dimension `d`, the indices `starts[d], starts[d] +
    strides[d], ...` below `limits[d]` (strides positive,
    `0 <= starts <= limits <= size`).

    Along a dynamic size `D` the stride is 1, the start 0 or more and the
    limit negative, counted from the end: `D + 1 + limit` (-1 is the end,
    -2 one before it). The result's size is the expression
    `D + 1 + limit - start` (docs/TensorIR.md, "Size expressions"), which
    must be at least 1 over the symbols' declared ranges.

    ```mlir
    %y = xtensor.slice %x starts [0, 1] limits [4, 8] strides [1, 2]
        : tensor<4x8xf32> -> tensor<4x4xf32>
    // x[1:] of T rows: T - 1 rows.
    %z = xtensor.slice %t starts [1, 0] limits [-1, 8] strides [1, 1]
        : tensor<?x8xf32, #xtensor.dims<T>>
        -> tensor<?x8xf32, #xtensor.dims<"T - 1">>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$limits, DenseI64ArrayAttr:$strides);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $input `starts` $starts `limits` $limits `strides` $strides attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def XTensor_PadOp : XTensor_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "constant padding";
  let description = [{
    Adds `low[d]` elements before and `high[d]` after dimension `d`, all
    equal to `value` (an attribute of the element type).

    ```mlir
    %y = xtensor.pad %x low [0, 1] high [0, 2] value 0.0 : f32
        : tensor<4x8xf32> -> tensor<4x11xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input, DenseI64ArrayAttr:$low,
                   DenseI64ArrayAttr:$high, TypedAttrInterface:$value);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $input `low` $low `high` $high `value` $value attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def XTensor_ConcatOp : XTensor_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "concatenation along a dimension";
  let description = [{
    Joins the operands along `dim`; all other dimensions and the element
    type agree.

    ```mlir
    %y = xtensor.concat %a, %b dim 1
        : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x10xf32>
    ```
  }];
  let arguments = (ins Variadic<XTensor_AnyTensor>:$inputs, I64Attr:$dim);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $inputs `dim` $dim attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasFolder = 1;
}

def XTensor_GatherOp : XTensor_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "selection of slices by index along an axis";
  let description = [{
    `jnp.take(input, indices, axis)`: the result shape is
    `input.shape[:axis] + indices.shape + input.shape[axis+1:]`. This is
    embedding lookup (`axis = 0`) and `index_select`. Out-of-range indices
    are undefined behaviour, as in CUDA kernels that do not check them.

    ```mlir
    %e = xtensor.gather %table[%ids] axis 0
        : tensor<32000x4096xf32>, tensor<8x128xi64> -> tensor<8x128x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$input, XTensor_IndexTensor:$indices,
                   I64Attr:$axis);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` $axis attr-dict `:` type($input) `,`
    type($indices) `->` type($result)
  }];
}

def XTensor_ScatterAddOp : XTensor_Op<"scatter_add", [Pure,
    AllTypesMatch<["dest", "result"]>]> {
  let summary = "sums of slices into a tensor at indices along an axis";
  let description = [{
    The adjoint of `xtensor.gather`: `dest` with the slices of `source`
    added at `indices` along `axis`, where `source` has the shape
    `dest.shape[:axis] + indices.shape + dest.shape[axis+1:]` (the shape
    `gather` gives). Slices written by several indices get each of their
    sums, in an unspecified order (floats may differ in rounding from run
    to run, as PyTorch's `index_add_` on a GPU does). This is an
    embedding's gradient (`axis = 0`), `index_add` and, over a flattened
    tensor, `scatter_add`. Elements are f32, f64, i32 or i64: the types a
    GPU adds atomically. Out-of-range indices are undefined behaviour, as
    in `gather`.

    ```mlir
    %g = xtensor.scatter_add %grad into %zeros[%ids] axis 0
        : tensor<8x128x4096xf32>, tensor<8x128xi64> -> tensor<32000x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_AnyTensor:$source, XTensor_AnyTensor:$dest,
                   XTensor_IndexTensor:$indices, I64Attr:$axis);
  let results = (outs XTensor_AnyTensor:$result);
  let assemblyFormat = [{
    $source `into` $dest `[` $indices `]` `axis` $axis attr-dict `:`
    type($source) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

def XTensor_MatmulOp : XTensor_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "batched matrix product";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`; the batch dimensions are
    equal (broadcast explicitly) and the element types agree. Float
    operands accumulate in at least f32. With f16/bf16 operands the result
    may be f32: the accumulator without its final rounding, for an
    epilogue (a bias) that must be added before rounding, as PyTorch's
    `linear` and `addmm` do. fp8 operands (f8E4M3FN, f8E5M2: both the
    same) give the f32 accumulator, their products exact, as fp8 tensor
    cores compute. The op stays atomic: see
    docs/TensorIR.md for why it is not decomposed into broadcast, mul and
    reduce.

    ```mlir
    %c = xtensor.matmul %a, %b : tensor<8x64x32xf32>, tensor<8x32x16xf32> -> tensor<8x64x16xf32>
    ```
  }];
  let arguments = (ins XTensor_MatmulOperand:$lhs,
                   XTensor_MatmulOperand:$rhs);
  let results = (outs XTensor_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let extraClassDeclaration = [{
    static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                        ::mlir::TypeRange actual);
  }];
}

//===----------------------------------------------------------------------===//
// Composite ops (removed by --xtensor-decompose)
//===----------------------------------------------------------------------===//

class XTensor_CompositeOp<string mnemonic, list<Trait> traits = []>
    : XTensor_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])>;

def XTensor_RmsNormOp : XTensor_CompositeOp<"rms_norm"> {
  let summary = "root-mean-square normalization (composite)";
  let description = [{
    `x * rsqrt(mean(x*x) + eps) * weight`, the mean taken over the last
    `norm_rank` dimensions; `weight`, if present, has the shape of those
    dimensions.

    ```mlir
    %y = xtensor.rms_norm %x weight %w eps 1.0e-6
        : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input,
                   Optional<XTensor_FloatTensor>:$weight, F64Attr:$eps,
                   DefaultValuedAttr<I64Attr, "1">:$norm_rank);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` $weight^)? `eps` $eps attr-dict `:`
    functional-type(operands, results)
  }];
}

def XTensor_LayerNormOp
    : XTensor_CompositeOp<"layer_norm", [AttrSizedOperandSegments]> {
  let summary = "layer normalization (composite)";
  let description = [{
    `(x - mean(x)) * rsqrt(var(x) + eps) * weight + bias` over the last
    `norm_rank` dimensions, with the biased variance as PyTorch uses.

    ```mlir
    %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
        : (tensor<8x4096xf32>, tensor<4096xf32>, tensor<4096xf32>) -> tensor<8x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input,
                   Optional<XTensor_FloatTensor>:$weight,
                   Optional<XTensor_FloatTensor>:$bias, F64Attr:$eps,
                   DefaultValuedAttr<I64Attr, "1">:$norm_rank);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` $weight^)? (`bias` $bias^)? `eps` $eps attr-dict `:`
    functional-type(operands, results)
  }];
}

def XTensor_SoftmaxOp : XTensor_CompositeOp<"softmax"> {
  let summary = "softmax along a dimension (composite)";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `dim`.

    ```mlir
    %y = xtensor.softmax %x dim 1 : tensor<4096x4096xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input, I64Attr:$dim);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = "$input `dim` $dim attr-dict `:` type($input)";
}

def XTensor_LogSoftmaxOp : XTensor_CompositeOp<"log_softmax"> {
  let summary = "log-softmax along a dimension (composite)";
  let description = [{
    `(x - max(x)) - log(sum(exp(x - max(x))))` along `dim`.

    ```mlir
    %y = xtensor.log_softmax %x dim 1 : tensor<64x32000xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input, I64Attr:$dim);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = "$input `dim` $dim attr-dict `:` type($input)";
}

def XTensor_GeluOp : XTensor_CompositeOp<"gelu"> {
  let summary = "GELU activation, erf or tanh form (composite)";
  let description = [{
    `erf`: `0.5 * x * (1 + erf(x / sqrt(2)))`; `tanh`:
    `0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))`, as
    `torch.nn.functional.gelu(x, approximate=...)`.

    ```mlir
    %y = xtensor.gelu erf %x : tensor<8x11008xf32>
    %z = xtensor.gelu tanh %x : tensor<8x11008xf32>
    ```
  }];
  let arguments = (ins XTensor_GeluApproximation:$approximation,
                   XTensor_FloatTensor:$input);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = "$approximation $input attr-dict `:` type($input)";
}

def XTensor_SiluOp : XTensor_CompositeOp<"silu"> {
  let summary = "SiLU (swish) activation (composite)";
  let description = [{
    `x * sigmoid(x)`.

    ```mlir
    %y = xtensor.silu %x : tensor<8x11008xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def XTensor_MeanOp : XTensor_CompositeOp<"mean"> {
  let summary = "arithmetic mean over dimensions (composite)";
  let description = [{
    `sum(x, dims) / count`, with `keepdim` as in `xtensor.reduce`.

    ```mlir
    %m = xtensor.mean %x dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input, DenseI64ArrayAttr:$dims,
                   UnitAttr:$keepdim);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = [{
    $input `dims` $dims (`keepdim` $keepdim^)? attr-dict `:` type($input)
    `->` type($result)
  }];
}

def XTensor_VarOp : XTensor_CompositeOp<"var"> {
  let summary = "variance over dimensions (composite)";
  let description = [{
    `sum((x - mean(x))^2, dims) / (count - correction)`; `correction = 1`
    (the default, as `torch.var`) is the unbiased estimator, `0` the
    biased one.

    ```mlir
    %v = xtensor.var %x dims [1] correction 0 : tensor<4x8xf32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input, DenseI64ArrayAttr:$dims,
                   UnitAttr:$keepdim, DefaultValuedAttr<I64Attr, "1">:$correction);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = [{
    $input `dims` $dims (`keepdim` $keepdim^)? `correction` $correction
    attr-dict `:` type($input) `->` type($result)
  }];
}

def XTensor_LinearOp : XTensor_CompositeOp<"linear"> {
  let summary = "affine layer with PyTorch's weight layout (composite)";
  let description = [{
    `x @ weight^T + bias` with `weight` in PyTorch's `[out, in]` layout and
    `x` of shape `[..., in]`; decomposition makes the transpose explicit.

    ```mlir
    %y = xtensor.linear %x, %w, %b
        : (tensor<8x4096xf32>, tensor<11008x4096xf32>, tensor<11008xf32>) -> tensor<8x11008xf32>
    ```
  }];
  let arguments = (ins XTensor_FloatTensor:$input, XTensor_FloatTensor:$weight,
                   Optional<XTensor_FloatTensor>:$bias);
  let results = (outs XTensor_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // XTILE_DIALECT_TENSOR_IR_TENSOROPS_TD
