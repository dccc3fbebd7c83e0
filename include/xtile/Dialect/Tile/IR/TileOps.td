//===- TileOps.td - xtile operations ----------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_TILE_IR_TILEOPS_TD
#define XTILE_DIALECT_TILE_IR_TILEOPS_TD

include "xtile/Dialect/Tile/IR/TileAttributes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def XTile_IndexLike : AnyTypeOf<[Index, StaticShapeTensorOf<[Index]>],
                                "index or tile of indices">;
def XTile_Tile : StaticShapeTensorOf<[AnyType]>;

def XTile_KernelOp : XTile_Op<"kernel", [
    Symbol, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "a kernel run as a grid of programs";
  let description = [{
    The body runs once per program of the `grid` (one to three dimensions),
    each with `num_warps` warps; `xtile.program_id` tells a program where it
    is. Block arguments are the buffers: `num_inputs` inputs, then outputs.
    `schedule` is how the programs run (an attribute of
    `ScheduleAttrInterface`: `#xtile.row_schedule` or `#xtile.dot_schedule`,
    its warps equal to `num_warps`), `target` the GPU it was chosen for;
    the verifier checks that the target can run it.

    ```mlir
    xtile.kernel @scale(%x: memref<4096xf32>) -> (%y: memref<4096xf32>)
        attributes {grid = array<i64: 4>, num_warps = 4 : i64} {
      ...
    }
    ```

    A kernel over dynamic sizes takes them after its buffers, as an
    `xloop.kernel` does (`num_sizes`, `size_ranges`, `size_hints`,
    `buffer_dims`). Its grid is then `grid_map`, an affine map of no
    dimensions whose symbols are the sizes, evaluated when it is launched;
    `grid` is that map at the sizes' maxima, which the verifier holds to
    the grid limits.

    ```mlir
    xtile.kernel @rows[%T = 1 to 4096](%x: memref<?x512xf32> [%T]) -> (%y: memref<?x512xf32> [%T])
        attributes {grid = array<i64: 4096>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 4 : i64} {
      ...
    }
    ```

    A kernel that is one bucket of a launch (`xtile.launch ... buckets`)
    and whose work is split over two kernels (attention's keys over ways,
    flash-decoding) is the second of them, which takes the launch's inputs,
    then the first's outputs (its partials: static buffers), then the
    launch's outputs; `partials_from` names the first, which takes the
    launch's inputs and sizes. The host runs both where the bucket's range
    holds the size, the first before the second.

    ```mlir
    xtile.kernel @attn_b2[%S = 2048 to 32768](%k: memref<8x?x128xbf16> [%S], ..., %m: memref<64x16xf32>, %l: memref<64x16xf32>, %acc: memref<64x16x128xf32>) -> (%o: memref<...>)
        attributes {partials_from = @attn_b2_partial, ...} {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$num_inputs,
                   DenseI64ArrayAttr:$grid, I64Attr:$num_warps,
                   OptionalAttr<XTile_TargetAttr>:$target,
                   OptionalAttr<XTile_AnySchedule>:$schedule,
                   DefaultValuedAttr<I64Attr, "0">:$num_sizes,
                   OptionalAttr<DenseI64ArrayAttr>:$size_ranges,
                   OptionalAttr<DenseI64ArrayAttr>:$size_hints,
                   OptionalAttr<DenseI64ArrayAttr>:$buffer_dims,
                   OptionalAttr<AffineMapAttr>:$grid_map,
                   OptionalAttr<FlatSymbolRefAttr>:$partials_from);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "int64_t":$numInputs, "::llvm::ArrayRef<int64_t>":$grid,
      "int64_t":$numWarps, "::xtile::tile::TargetAttr":$target,
      "::xtile::tile::ScheduleAttrInterface":$schedule), [{
    build($_builder, $_state, name, numInputs, grid, numWarps, target,
          schedule, /*num_sizes=*/0, nullptr, nullptr, nullptr, nullptr,
          nullptr);
  }]>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The dynamic sizes, after the buffers.
    ::llvm::ArrayRef<::mlir::BlockArgument> getSizes() {
      return getBodyBlock().getArguments().take_back(getNumSizes());
    }
    /// The grid at `sizes` (one value per size; none for a static kernel).
    ::llvm::SmallVector<int64_t> getGridAt(::llvm::ArrayRef<int64_t> sizes);
  }];
}

def XTile_LaunchOp : XTile_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "runs a Tile IR kernel on tensors (the host side)";
  let description = [{
    The host side of a program at Tile level: a function of launches of
    `xtile.kernel`s, as `xloop.launch` is at Loop level (the Loop-to-Tile
    conversion rewrites one into the other). Launches `kernel` with the
    operands as its inputs; the results are its outputs, matching the
    kernel's buffers in shape and element type. A kernel over dynamic sizes
    is launched with the names of the function's sizes (its
    `xtensor.symbols`) that its size arguments take, in brackets.

    ```mlir
    %c = xtile.launch @scale[T](%a) : (tensor<?x8xf32, #xtensor.dims<T>>)
        -> tensor<?x8xf32, #xtensor.dims<T>>
    ```

    `updates`, as on `xloop.launch`: a result written into an operand's
    buffer, only where it changes. `buckets`, as on `xloop.launch`: kernels
    of the same buffers over consecutive parts of one size's range, the
    launch running the one whose ranges hold the sizes.
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                   DefaultValuedAttr<StrArrayAttr, "{}">:$sizes,
                   Variadic<AnyRankedTensor>:$inputs,
                   OptionalAttr<DenseI64ArrayAttr>:$updates,
                   OptionalAttr<FlatSymbolRefArrayAttr>:$buckets);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $kernel `` custom<SizeNames>($sizes) `` `(` $inputs `)`
    (`buckets` $buckets^)? attr-dict `:` functional-type($inputs, $outputs)
  }];
}

def XTile_ProgramIdOp : XTile_Op<"program_id", [Pure]> {
  let summary = "this program's index along a grid dimension";
  let description = [{
    ```mlir
    %row = xtile.program_id 0
    ```
  }];
  let arguments = (ins I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
  let hasVerifier = 1;
}

def XTile_RangeOp : XTile_Op<"range", [Pure]> {
  let summary = "the tile [lower, lower + 1, ..., upper - 1]";
  let description = [{
    Triton's `arange`: offsets within a tile, the start of index
    arithmetic.

    ```mlir
    %cols = xtile.range 0 to 1024 : tensor<1024xindex>
    ```
  }];
  let arguments = (ins I64Attr:$lower, I64Attr:$upper);
  let results = (outs StaticShapeTensorOf<[Index, I32, I64]>:$result);
  let assemblyFormat = "$lower `to` $upper attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def XTile_SplatOp : XTile_Op<"splat", [Pure]> {
  let summary = "a scalar repeated over a tile";
  let description = [{
    ```mlir
    %rows = xtile.splat %row : index -> tensor<1024xindex>
    ```
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs XTile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def XTile_BroadcastOp : XTile_Op<"broadcast", [Pure]> {
  let summary = "a tile repeated along its size-1 dimensions";
  let description = [{
    ```mlir
    %b = xtile.broadcast %r : tensor<64x1xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins XTile_Tile:$input);
  let results = (outs XTile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def XTile_ReshapeOp : XTile_Op<"reshape", [Pure]> {
  let summary = "a tile's elements in another shape";
  let description = [{
    Row-major, same element count; `tensor<64xindex> -> tensor<64x1xindex>`
    is Triton's `x[:, None]`.

    ```mlir
    %col = xtile.reshape %rows : tensor<64xindex> -> tensor<64x1xindex>
    ```
  }];
  let arguments = (ins XTile_Tile:$input);
  let results = (outs XTile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def XTile_LoadOp : XTile_Op<"load", [Pure, AttrSizedOperandSegments]> {
  let summary = "a gather of a tile (or one element) from a buffer";
  let description = [{
    One index per buffer dimension, each a scalar (the same for every
    element) or a tile of the result's shape. Where the optional `mask` is
    false nothing is read and the element is `other` (the fold identity, for
    ragged edges). With only scalar indices the result is one element.
    Loads read kernel inputs, which never change while the kernel runs, so
    they have no side effect: identical loads merge and dead ones go.

    ```mlir
    %v = xtile.load %x[%rows, %cols] mask %in : tensor<1024xi1> other %zero : f32
        : memref<4096x1000xf32>[tensor<1024xindex>, tensor<1024xindex>] -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$buffer,
                   Variadic<XTile_IndexLike>:$indices,
                   Optional<StaticShapeTensorOf<[I1]>>:$mask,
                   Optional<AnyType>:$other);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` (`mask` $mask^ `:` type($mask))?
    (`other` $other^ `:` type($other))? attr-dict `:` type($buffer)
    (`[` type($indices)^ `]`)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def XTile_StoreOp : XTile_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "a scatter of a tile (or one element) into a buffer";
  let description = [{
    The counterpart of `xtile.load`: elements where `mask` is false are not
    written.

    ```mlir
    xtile.store %v, %y[%rows, %cols] mask %in : tensor<1024xi1>
        : memref<4096x1000xf32>[tensor<1024xindex>, tensor<1024xindex>], tensor<1024xf32>
    ```

    With `accumulate` (`xloop.store`'s), each element is added to the
    buffer's, atomically: elements of one tile, or of different programs,
    that reach the same position all add up.
  }];
  let arguments = (ins AnyType:$value,
                   Arg<AnyMemRef, "", [MemWrite]>:$buffer,
                   Variadic<XTile_IndexLike>:$indices,
                   Optional<StaticShapeTensorOf<[I1]>>:$mask,
                   UnitAttr:$accumulate);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` (`mask` $mask^ `:` type($mask))?
    (`accumulate` $accumulate^)? attr-dict `:` type($buffer)
    (`[` type($indices)^ `]`)? `,` type($value)
  }];
  let hasVerifier = 1;
}

def XTile_FoldOp : XTile_Op<"fold", [Pure]> {
  let summary = "a reduction of tile dimensions with its algebra";
  let description = [{
    Combines the elements of `input` along `dims` with `combine`, starting
    from `identity` (the combine's neutral element, which masked-off
    elements also hold). `associative` and `commutative` state the facts
    that make reordering legal: any `strategy` but `serial` (one thread, in
    order) needs both. `warp` reduces with shuffles within a warp, `block`
    across the program's warps through shared memory, `split` across
    programs with a second pass. When every dimension is reduced the result
    is one element.

    ```mlir
    %s = xtile.fold add %sq dims [0] identity 0.0 : f32 strategy block
        {associative, commutative} : tensor<4096xf32> -> f32
    ```
  }];
  let arguments = (ins XTile_CombineKind:$combine, XTile_Tile:$input,
                   DenseI64ArrayAttr:$dims, TypedAttrInterface:$identity,
                   UnitAttr:$associative, UnitAttr:$commutative,
                   DefaultValuedAttr<XTile_FoldStrategy,
                                     "FoldStrategy::serial">:$strategy);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $combine $input `dims` $dims `identity` $identity `strategy` $strategy
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def XTile_DotOp : XTile_Op<"dot", [Pure,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "a tile contraction, accumulated";
  let description = [{
    `acc + lhs @ rhs` for `[M, K] x [K, N]` tiles into an `[M, N]`
    accumulator; f16 and bf16 tiles accumulate in f32 (tensor cores).

    ```mlir
    %c1 = xtile.dot %a, %b, %c0
        : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    ```
  }];
  let arguments = (ins XTile_Tile:$lhs, XTile_Tile:$rhs, XTile_Tile:$acc);
  let results = (outs XTile_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($acc)
  }];
  let hasVerifier = 1;
}

#endif // XTILE_DIALECT_TILE_IR_TILEOPS_TD
