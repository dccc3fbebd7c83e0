//===- Passes.td - xtile passes ---------------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define XTILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def XTilePlanPipelines : Pass<"xtile-plan-pipelines", "::mlir::ModuleOp"> {
  let summary = "Plan the software pipelining of Tile IR kernels' K loops";
  let description = [{
    Decides, for each loop with dots in a Tile IR kernel, how it is
    software-pipelined, and records it in attributes that
    --convert-xtile-to-xkernel applies (and checks):

    - `xtile.pipeline = #xtile.pipeline<stages = S, overlap, warp_specialized>`
      on the loop, from its `xtile.num_stages`: the operand tiles of its
      dots are copied S - 1 iterations ahead (S - 2 with `overlap`, where
      each wgmma group stays in flight across an iteration); with
      `warp_specialized` (a warp-specialized schedule) a producer
      warpgroup issues the copies from this loop on.
    - `xtile.async_copy = #xtile.async_copy<group = G, transposed, tma_box = [...], swizzle = W>`
      on each load the copies bring in: `cp.async` of G elements, row by
      row or column by column, or on wgmma kernels TMA copies of a box of
      the buffer.

    A dot operand qualifies when it is a load (or a select of zeros on the
    load's mask) in the loop's body of a 2-d tile, read only by dots,
    whose indices any iteration can compute, and whose groups of elements
    are adjacent and aligned in memory. `--lower-to-kernel` runs this pass
    before the Kernel IR lowering; a loop without the attributes is not
    pipelined.
  }];
  let dependentDialects = ["::xtile::tile::XTileDialect"];
}

#endif // XTILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
