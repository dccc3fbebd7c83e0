//===- TileBase.td - xtile dialect definition -------------*- tablegen -*-===//
//
// Tile IR: what each program instance computes, on tiles; where the
// schedule for the GPU is chosen.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TILE_IR_TILEBASE_TD
#define XTILE_DIALECT_TILE_IR_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def XTile_Dialect : Dialect {
  let name = "xtile";
  let cppNamespace = "::xtile::tile";
  let summary = "Tile IR: programs over tiles, folds with their algebra";
  let description = [{
    `xtile` is the third level of the stack. A kernel runs as a grid of
    programs (`xtile.program_id`); each program computes on *tiles*, builtin
    tensors of static shape held in registers, with upstream `arith` and
    `math` ops applied elementwise. Memory is touched only by `xtile.load`
    and `xtile.store` with a tile of indices per buffer dimension and an
    optional mask for ragged edges. Reductions are `xtile.fold`s that carry
    their algebra (combine operation, identity, associativity and
    commutativity) and the strategy chosen for them; contractions are
    `xtile.dot`. The target GPU is an attribute (`#xtile.target`), with
    built-in descriptions of sm_90 and sm_80.

    ```mlir
    xtile.kernel @row_sum(%x: memref<4096x1000xf32>) -> (%y: memref<4096xf32>)
        attributes {grid = array<i64: 4096>, num_warps = 4 : i64} {
      %row = xtile.program_id 0
      %cols = xtile.range 0 to 1024 : tensor<1024xindex>
      %rows = xtile.splat %row : index -> tensor<1024xindex>
      %n = arith.constant dense<1000> : tensor<1024xindex>
      %in = arith.cmpi slt, %cols, %n : tensor<1024xindex>
      %zero = arith.constant 0.0 : f32
      %v = xtile.load %x[%rows, %cols] mask %in : tensor<1024xi1> other %zero : f32
          : memref<4096x1000xf32>[tensor<1024xindex>, tensor<1024xindex>] -> tensor<1024xf32>
      %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy block
          {associative, commutative} : tensor<1024xf32> -> f32
      xtile.store %s, %y[%row] : memref<4096xf32>[index], f32
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // `xtile.schedule` on an `xloop.kernel`: the schedule chosen for it
  // (--xtile-select-schedule, --xtile-apply-schedule-spec), which
  // --convert-xloop-to-xtile applies. `xtile.num_stages` on an `scf.for`
  // of a Tile IR kernel: how many iterations ahead its loads are issued,
  // which --xtile-plan-pipelines turns into `xtile.pipeline` on the loop
  // and `xtile.async_copy` on the loads it copies ahead.
  // `xtile.batch_group` on a contraction's `xtile.kernel`: its programs
  // run in groups of that many batches, the batch fastest (a grouped
  // GEMM's blocks, which share their experts' matrices through L2).
  let discardableAttrs = (ins "::mlir::Attribute":$schedule,
                              "::mlir::IntegerAttr":$num_stages,
                              "::mlir::Attribute":$pipeline,
                              "::mlir::Attribute":$async_copy,
                              "::mlir::IntegerAttr":$batch_group);
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

class XTile_Op<string mnemonic, list<Trait> traits = []>
    : Op<XTile_Dialect, mnemonic, traits>;

def XTile_CombineKind : I32EnumAttr<"CombineKind", "fold combine operation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"And", 4, "and">, I32EnumAttrCase<"Or", 5, "or">]> {
  let cppNamespace = "::xtile::tile";
}

def XTile_DotInstruction : I32EnumAttr<"DotInstruction",
    "the instructions a contraction's multiply-adds run on", [
    I32EnumAttrCase<"fma", 0>, I32EnumAttrCase<"mma_sync", 1>,
    I32EnumAttrCase<"wgmma", 2>]> {
  let cppNamespace = "::xtile::tile";
}

def XTile_FoldStrategy : I32EnumAttr<"FoldStrategy", "how a fold is executed", [
    I32EnumAttrCase<"serial", 0>, I32EnumAttrCase<"warp", 1>,
    I32EnumAttrCase<"block", 2>, I32EnumAttrCase<"split", 3>]> {
  let cppNamespace = "::xtile::tile";
}

#endif // XTILE_DIALECT_TILE_IR_TILEBASE_TD
