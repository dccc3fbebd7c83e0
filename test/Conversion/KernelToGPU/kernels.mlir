// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s
// RUN: xtile-opt %s --convert-xkernel-to-nvvm="chip=sm_80 features=+ptx70" | FileCheck %s --check-prefix=SM80

// Kernels move into one gpu.module with the NVVM target and keep their
// names; the host program, whose launches would name kernels that are no
// longer there, is dropped.

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @xtile_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// SM80: gpu.module @xtile_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">]

// Read-only arguments are noalias readonly pointers (ld.global.nc); the
// launch bound is max_threads; scalars stay scalars.
// CHECK: llvm.func @scale(%[[X:.*]]: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %[[Y:.*]]: !llvm.ptr<1>, %[[S:.*]]: f32)
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
// CHECK: %[[V:.*]] = llvm.load
// CHECK: %[[W:.*]] = llvm.fmul %[[V]], %[[S]] : f32
// CHECK: llvm.store %[[W]]
// CHECK: llvm.return
xkernel.func @scale(%x: !xkernel.ptr<f32, global> {xkernel.readonly},
                    %y: !xkernel.ptr<f32, global>, %s: f32)
    attributes {max_threads = 128 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  %w = arith.mulf %v, %s : f32
  xkernel.store %w, %y[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// Ids are the PTX special registers, zero-extended to 64-bit indices, with
// the ranges the launch bound and CUDA's grid limits give them.
// CHECK: llvm.func @ids(%[[OUT:.*]]: !llvm.ptr<1>)
// CHECK-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// CHECK: %[[TX:.*]] = nvvm.read.ptx.sreg.tid.x range <i32, 0, 64> : i32
// CHECK: %[[TX64:.*]] = llvm.zext %[[TX]] : i32 to i64
// CHECK: nvvm.read.ptx.sreg.tid.y range <i32, 0, 64> : i32
// CHECK: nvvm.read.ptx.sreg.tid.z range <i32, 0, 64> : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.x range <i32, 0, 2147483647> : i32
// CHECK: nvvm.read.ptx.sreg.ctaid.y range <i32, 0, 65535> : i32
// CHECK: nvvm.read.ptx.sreg.ntid.x range <i32, 1, 65> : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.x range <i32, 1, -2147483648> : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.z range <i32, 1, 65536> : i32
// CHECK: llvm.getelementptr inbounds %[[OUT]][%[[TX64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
xkernel.func @ids(%out: !xkernel.ptr<i64, global>)
    attributes {max_threads = 64 : i64} {
  %tx = xkernel.thread_id x
  %ty = xkernel.thread_id y
  %tz = xkernel.thread_id z
  %bx = xkernel.block_id x
  %by = xkernel.block_id y
  %nx = xkernel.block_dim x
  %gx = xkernel.grid_dim x
  %gz = xkernel.grid_dim z
  %a = arith.addi %ty, %tz : index
  %b = arith.addi %bx, %by : index
  %c = arith.addi %nx, %gx : index
  %d = arith.addi %a, %b : index
  %e = arith.addi %c, %d : index
  %f = arith.addi %e, %gz : index
  %v = arith.index_cast %f : index to i64
  xkernel.store %v, %out[%tx] : i64, !xkernel.ptr<i64, global>
  xkernel.return
}

// CHECK-NOT: xkernel.
xkernel.program @host() -> (%out: memref<64xi64>) {
  xkernel.launch @ids(%out) grid [1, 1, 1] block [64, 1, 1] shared 0
      : memref<64xi64>
}
