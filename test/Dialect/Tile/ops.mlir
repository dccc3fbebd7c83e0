// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// Round trip of every xtile op and attribute form through the custom form, the
// custom form printed and parsed again, and the generic form parsed back. Each
// CHECK pins the exact custom form the printer produces.

//===----------------------------------------------------------------------===//
// Kernels: grids, targets, schedules
//===----------------------------------------------------------------------===//

// A kernel over a dynamic size: its grid map counts its programs at run
// time; `grid` is the map at the size's maximum.
// CHECK: #[[GRID:.*]] = affine_map<()[s0] -> (s0 ceildiv 4)>
// CHECK-LABEL: xtile.kernel @dynamic_rows
// CHECK-SAME:      [%[[T:[a-zA-Z0-9_]+]] = 1 to 4096](%{{[a-zA-Z0-9_]+}}: memref<?x64xf32> [%[[T]]]) -> (%{{[a-zA-Z0-9_]+}}: memref<?x64xf32> [%[[T]]]) attributes {grid = array<i64: 1024>, grid_map = #[[GRID]], num_warps = 4 : i64, size_hints = array<i64: 256>} {
// CHECK-NEXT:    xtile.program_id 0
xtile.kernel @dynamic_rows[%T = 1 to 4096](%x: memref<?x64xf32> [%T]) -> (%y: memref<?x64xf32> [%T])
    attributes {grid = array<i64: 1024>, grid_map = affine_map<()[s0] -> (s0 ceildiv 4)>, num_warps = 4 : i64, size_hints = array<i64: 256>} {
  %pid = xtile.program_id 0
}

// A 1-D grid, no target, no schedule: a program offsets a range by its id.
// CHECK-LABEL: xtile.kernel @grid_1d(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<1024xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<1024xf32>) attributes {grid = array<i64: 8>, num_warps = 4 : i64} {
// CHECK-NEXT:    %[[PID:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 128 : tensor<128xindex>
// CHECK-NEXT:    %[[SIZE:[a-zA-Z0-9_]+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[BASE:[a-zA-Z0-9_]+]] = arith.muli %[[PID]], %[[SIZE]] : index
// CHECK-NEXT:    %[[BASES:[a-zA-Z0-9_]+]] = xtile.splat %[[BASE]] : index -> tensor<128xindex>
// CHECK-NEXT:    %[[IDX:[a-zA-Z0-9_]+]] = arith.addi %[[BASES]], %[[OFFS]] : tensor<128xindex>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[IDX]]] : memref<1024xf32>[tensor<128xindex>] -> tensor<128xf32>
// CHECK-NEXT:    xtile.store %[[V]], %[[Y]][%[[IDX]]] : memref<1024xf32>[tensor<128xindex>], tensor<128xf32>
// CHECK-NEXT:  }
xtile.kernel @grid_1d(%x: memref<1024xf32>) -> (%y: memref<1024xf32>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64} {
  %pid = xtile.program_id 0
  %offs = xtile.range 0 to 128 : tensor<128xindex>
  %size = arith.constant 128 : index
  %base = arith.muli %pid, %size : index
  %bases = xtile.splat %base : index -> tensor<128xindex>
  %idx = arith.addi %bases, %offs : tensor<128xindex>
  %v = xtile.load %x[%idx] : memref<1024xf32>[tensor<128xindex>] -> tensor<128xf32>
  xtile.store %v, %y[%idx] : memref<1024xf32>[tensor<128xindex>], tensor<128xf32>
}

// An accumulating (atomic) scatter of a tile.
// CHECK-LABEL: xtile.kernel @scatter_add(
// CHECK:         xtile.store %{{.*}}, %{{.*}}[%{{.*}}] accumulate : memref<16xf32>[tensor<128xindex>], tensor<128xf32>
xtile.kernel @scatter_add(%ids: memref<128xi64>, %x: memref<128xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %offs = xtile.range 0 to 128 : tensor<128xindex>
  %id = xtile.load %ids[%offs] : memref<128xi64>[tensor<128xindex>] -> tensor<128xi64>
  %at = arith.index_cast %id : tensor<128xi64> to tensor<128xindex>
  %v = xtile.load %x[%offs] : memref<128xf32>[tensor<128xindex>] -> tensor<128xf32>
  xtile.store %v, %y[%at] accumulate : memref<16xf32>[tensor<128xindex>], tensor<128xf32>
}

// A 2-D grid with an explicit #xtile.target (the built-in sm_90 figures) and
// the most warps allowed; one program_id per grid dimension.
// CHECK-LABEL: xtile.kernel @grid_2d_sm_90(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<64x64xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<64x64xf32>) attributes {grid = array<i64: 64, 64>, num_warps = 32 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[C:[a-zA-Z0-9_]+]] = xtile.program_id 1
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[R]], %[[C]]] : memref<64x64xf32>[index, index] -> f32
// CHECK-NEXT:    xtile.store %[[V]], %[[Y]][%[[R]], %[[C]]] : memref<64x64xf32>[index, index], f32
// CHECK-NEXT:  }
xtile.kernel @grid_2d_sm_90(%x: memref<64x64xf32>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 64, 64>, num_warps = 32 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.program_id 0
  %c = xtile.program_id 1
  %v = xtile.load %x[%r, %c] : memref<64x64xf32>[index, index] -> f32
  xtile.store %v, %y[%r, %c] : memref<64x64xf32>[index, index], f32
}

// A 3-D grid with the built-in sm_80 (A100) figures spelled out (the
// occupancy limits left at their defaults are not printed), a serial row
// schedule and a single warp.
// CHECK-LABEL: xtile.kernel @grid_3d_sm_80(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<2x4x8xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<2x4x8xf32>) attributes {grid = array<i64: 2, 4, 8>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, fp32_gflops = 19500, l2_bandwidth = 6117>} {
// CHECK-NEXT:    %[[I:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[J:[a-zA-Z0-9_]+]] = xtile.program_id 1
// CHECK-NEXT:    %[[K:[a-zA-Z0-9_]+]] = xtile.program_id 2
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[I]], %[[J]], %[[K]]] : memref<2x4x8xf32>[index, index, index] -> f32
// CHECK-NEXT:    xtile.store %[[V]], %[[Y]][%[[I]], %[[J]], %[[K]]] : memref<2x4x8xf32>[index, index, index], f32
// CHECK-NEXT:  }
xtile.kernel @grid_3d_sm_80(%x: memref<2x4x8xf32>) -> (%y: memref<2x4x8xf32>)
    attributes {grid = array<i64: 2, 4, 8>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, max_threads_per_sm = 2048, max_blocks_per_sm = 32, max_registers_per_thread = 255, fp32_gflops = 19500, l2_bandwidth = 6117, memory_latency = 600>} {
  %i = xtile.program_id 0
  %j = xtile.program_id 1
  %k = xtile.program_id 2
  %v = xtile.load %x[%i, %j, %k] : memref<2x4x8xf32>[index, index, index] -> f32
  xtile.store %v, %y[%i, %j, %k] : memref<2x4x8xf32>[index, index, index], f32
}

// A schedule without a target; two inputs and two outputs.
// CHECK-LABEL: xtile.kernel @schedule_only(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<16xf32>, %[[W:[a-zA-Z0-9_]+]]: memref<16xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<16xf32>, %[[Z:[a-zA-Z0-9_]+]]: memref<16xf32>) attributes {grid = array<i64: 1>, num_warps = 2 : i64, schedule = #xtile.row_schedule<block, warps = 2, vector = 4>} {
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 16 : tensor<16xindex>
// CHECK-NEXT:    %[[A:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[OFFS]]] : memref<16xf32>[tensor<16xindex>] -> tensor<16xf32>
// CHECK-NEXT:    %[[B:[a-zA-Z0-9_]+]] = xtile.load %[[W]][%[[OFFS]]] : memref<16xf32>[tensor<16xindex>] -> tensor<16xf32>
// CHECK-NEXT:    xtile.store %[[A]], %[[Y]][%[[OFFS]]] : memref<16xf32>[tensor<16xindex>], tensor<16xf32>
// CHECK-NEXT:    xtile.store %[[B]], %[[Z]][%[[OFFS]]] : memref<16xf32>[tensor<16xindex>], tensor<16xf32>
// CHECK-NEXT:  }
xtile.kernel @schedule_only(%x: memref<16xf32>, %w: memref<16xf32>) -> (%y: memref<16xf32>, %z: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 2 : i64, schedule = #xtile.row_schedule<block, warps = 2, vector = 4>} {
  %offs = xtile.range 0 to 16 : tensor<16xindex>
  %a = xtile.load %x[%offs] : memref<16xf32>[tensor<16xindex>] -> tensor<16xf32>
  %b = xtile.load %w[%offs] : memref<16xf32>[tensor<16xindex>] -> tensor<16xf32>
  xtile.store %a, %y[%offs] : memref<16xf32>[tensor<16xindex>], tensor<16xf32>
  xtile.store %b, %z[%offs] : memref<16xf32>[tensor<16xindex>], tensor<16xf32>
}

// The other schedules: a row in chunks, a split row, a contraction's
// output tiles (an empty body: a dot-free kernel needs no shared memory).
// CHECK-LABEL: xtile.kernel @chunked(
// CHECK-SAME:      schedule = #xtile.row_schedule<block, warps = 16, vector = 4, chunk = 4096>
xtile.kernel @chunked(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 16 : i64, schedule = #xtile.row_schedule<block, warps = 16, vector = 4, chunk = 4096>} {
}
// CHECK-LABEL: xtile.kernel @columns(
// CHECK-SAME:      schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 128>
xtile.kernel @columns(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 8 : i64, schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 128>} {
}
// CHECK-LABEL: xtile.kernel @column_split(
// CHECK-SAME:      schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 64, ways = 16>
xtile.kernel @column_split(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 8 : i64, schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 64, ways = 16>} {
}
// CHECK-LABEL: xtile.kernel @split(
// CHECK-SAME:      schedule = #xtile.row_schedule<split, warps = 8, vector = 4, ways = 16>
xtile.kernel @split(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 8 : i64, schedule = #xtile.row_schedule<split, warps = 8, vector = 4, ways = 16>} {
}
// CHECK-LABEL: xtile.kernel @output_tiles(
// CHECK-SAME:      schedule = #xtile.dot_schedule<block_m = 128, block_n = 64, block_k = 32, stages = 3, warps = 4>
xtile.kernel @output_tiles(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 64, block_k = 32, stages = 3, warps = 4>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}

// On tensor cores: 8 warps in a 2 x 4 grid, each computing a 64 x 32 sub-tile
// with mma.sync (the defaults instruction = fma, warps_m = 1 are not printed).
// CHECK-LABEL: xtile.kernel @tensor_cores(
// CHECK-SAME:      schedule = #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 32, stages = 3, warps = 8, instruction = mma_sync, warps_m = 2>
xtile.kernel @tensor_cores(%a: memref<128x32xbf16>, %b: memref<32x128xbf16>) -> (%c: memref<128x128xf32>)
    attributes {grid = array<i64: 1>, num_warps = 8 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 32, stages = 3, warps = 8, instruction = mma_sync, warps_m = 2>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, mma_sync_gflops = 312000>} {
  %x = arith.constant dense<1.0> : tensor<128x32xbf16>
  %y = arith.constant dense<1.0> : tensor<32x128xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = xtile.dot %x, %y, %z : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
}

// f32 operands on tensor cores with TF32.
// CHECK-LABEL: xtile.kernel @tf32(
// CHECK-SAME:      schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2, tf32 = true>
xtile.kernel @tf32(%a: memref<64x32xf32>, %b: memref<32x64xf32>) -> (%c: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2, tf32 = true>} {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  %y = arith.constant dense<1.0> : tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = xtile.dot %x, %y, %z : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
}

// A target that is not built in (any sm_* with positive fields), no schedule,
// 16 warps filling its 512 threads; an empty body.
// CHECK-LABEL: xtile.kernel @target_only(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<16xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<16xf32>) attributes {grid = array<i64: 1>, num_warps = 16 : i64, target = #xtile.target<arch = "sm_75", sms = 1, max_threads = 512, shared_memory = 1, registers = 1, bandwidth = 1, l2 = 1>} {
// CHECK-NEXT:  }
xtile.kernel @target_only(%x: memref<16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 16 : i64, target = #xtile.target<arch = "sm_75", sms = 1, max_threads = 512, shared_memory = 1, registers = 1, bandwidth = 1, l2 = 1>} {
}

//===----------------------------------------------------------------------===//
// Tile construction: range, splat, reshape, broadcast
//===----------------------------------------------------------------------===//

// range with index, i32 and i64 results (also a negative lower bound); splat of
// f32 and i32 scalars; reshape (rank up and rank down); broadcast along a
// size-1 dimension of either side and the identity broadcast.
// CHECK-LABEL: xtile.kernel @construction(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<64x128xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<64x128xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
// CHECK-NEXT:    %[[RI:[a-zA-Z0-9_]+]] = xtile.range 0 to 64 : tensor<64xindex>
// CHECK-NEXT:    %[[R32:[a-zA-Z0-9_]+]] = xtile.range 16 to 48 : tensor<32xi32>
// CHECK-NEXT:    %[[R64:[a-zA-Z0-9_]+]] = xtile.range -8 to 8 : tensor<16xi64>
// CHECK-NEXT:    %[[C:[a-zA-Z0-9_]+]] = arith.constant 2.500000e+00 : f32
// CHECK-NEXT:    %[[SF:[a-zA-Z0-9_]+]] = xtile.splat %[[C]] : f32 -> tensor<64x128xf32>
// CHECK-NEXT:    %[[N:[a-zA-Z0-9_]+]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[SI:[a-zA-Z0-9_]+]] = xtile.splat %[[N]] : i32 -> tensor<32xi32>
// CHECK-NEXT:    %[[COL:[a-zA-Z0-9_]+]] = xtile.reshape %[[RI]] : tensor<64xindex> -> tensor<64x1xindex>
// CHECK-NEXT:    %[[FLAT:[a-zA-Z0-9_]+]] = xtile.reshape %[[SF]] : tensor<64x128xf32> -> tensor<8192xf32>
// CHECK-NEXT:    %[[ROWS:[a-zA-Z0-9_]+]] = xtile.broadcast %[[COL]] : tensor<64x1xindex> -> tensor<64x128xindex>
// CHECK-NEXT:    %[[SAME:[a-zA-Z0-9_]+]] = xtile.broadcast %[[SF]] : tensor<64x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    %[[CR:[a-zA-Z0-9_]+]] = xtile.range 0 to 128 : tensor<128xindex>
// CHECK-NEXT:    %[[ROW:[a-zA-Z0-9_]+]] = xtile.reshape %[[CR]] : tensor<128xindex> -> tensor<1x128xindex>
// CHECK-NEXT:    %[[COLS:[a-zA-Z0-9_]+]] = xtile.broadcast %[[ROW]] : tensor<1x128xindex> -> tensor<64x128xindex>
// CHECK-NEXT:    xtile.store %[[SAME]], %[[Y]][%[[ROWS]], %[[COLS]]] : memref<64x128xf32>[tensor<64x128xindex>, tensor<64x128xindex>], tensor<64x128xf32>
// CHECK-NEXT:  }
xtile.kernel @construction(%x: memref<64x128xf32>) -> (%y: memref<64x128xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %ri = xtile.range 0 to 64 : tensor<64xindex>
  %r32 = xtile.range 16 to 48 : tensor<32xi32>
  %r64 = xtile.range -8 to 8 : tensor<16xi64>
  %c = arith.constant 2.5 : f32
  %sf = xtile.splat %c : f32 -> tensor<64x128xf32>
  %n = arith.constant 7 : i32
  %si = xtile.splat %n : i32 -> tensor<32xi32>
  %col = xtile.reshape %ri : tensor<64xindex> -> tensor<64x1xindex>
  %flat = xtile.reshape %sf : tensor<64x128xf32> -> tensor<8192xf32>
  %rows = xtile.broadcast %col : tensor<64x1xindex> -> tensor<64x128xindex>
  %same = xtile.broadcast %sf : tensor<64x128xf32> -> tensor<64x128xf32>
  %cr = xtile.range 0 to 128 : tensor<128xindex>
  %row = xtile.reshape %cr : tensor<128xindex> -> tensor<1x128xindex>
  %cols = xtile.broadcast %row : tensor<1x128xindex> -> tensor<64x128xindex>
  xtile.store %same, %y[%rows, %cols] : memref<64x128xf32>[tensor<64x128xindex>, tensor<64x128xindex>], tensor<64x128xf32>
}

//===----------------------------------------------------------------------===//
// Memory: load and store
//===----------------------------------------------------------------------===//

// Loads: scalar-only indices (one element), tile indices, mixed scalar and tile
// indices, with a mask, with a mask and other.
// CHECK-LABEL: xtile.kernel @loads(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<32x64xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<32x64xf32>) attributes {grid = array<i64: 32>, num_warps = 2 : i64} {
// CHECK-NEXT:    %[[ROW:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROW]], %[[C0]]] : memref<32x64xf32>[index, index] -> f32
// CHECK-NEXT:    %[[COLS:[a-zA-Z0-9_]+]] = xtile.range 0 to 64 : tensor<64xindex>
// CHECK-NEXT:    %[[ROWS:[a-zA-Z0-9_]+]] = xtile.splat %[[ROW]] : index -> tensor<64xindex>
// CHECK-NEXT:    %[[TILED:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROWS]], %[[COLS]]] : memref<32x64xf32>[tensor<64xindex>, tensor<64xindex>] -> tensor<64xf32>
// CHECK-NEXT:    %[[MIXED:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROW]], %[[COLS]]] : memref<32x64xf32>[index, tensor<64xindex>] -> tensor<64xf32>
// CHECK-NEXT:    %[[N:[a-zA-Z0-9_]+]] = arith.constant dense<48> : tensor<64xindex>
// CHECK-NEXT:    %[[IN:[a-zA-Z0-9_]+]] = arith.cmpi slt, %[[COLS]], %[[N]] : tensor<64xindex>
// CHECK-NEXT:    %[[MASKED:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROW]], %[[COLS]]] mask %[[IN]] : tensor<64xi1> : memref<32x64xf32>[index, tensor<64xindex>] -> tensor<64xf32>
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[PADDED:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROWS]], %[[COLS]]] mask %[[IN]] : tensor<64xi1> other %[[ZERO]] : f32 : memref<32x64xf32>[tensor<64xindex>, tensor<64xindex>] -> tensor<64xf32>
// CHECK-NEXT:    xtile.store %[[PADDED]], %[[Y]][%[[ROW]], %[[COLS]]] : memref<32x64xf32>[index, tensor<64xindex>], tensor<64xf32>
// CHECK-NEXT:  }
xtile.kernel @loads(%x: memref<32x64xf32>) -> (%y: memref<32x64xf32>)
    attributes {grid = array<i64: 32>, num_warps = 2 : i64} {
  %row = xtile.program_id 0
  %c0 = arith.constant 0 : index
  %one = xtile.load %x[%row, %c0] : memref<32x64xf32>[index, index] -> f32
  %cols = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.splat %row : index -> tensor<64xindex>
  %tiled = xtile.load %x[%rows, %cols] : memref<32x64xf32>[tensor<64xindex>, tensor<64xindex>] -> tensor<64xf32>
  %mixed = xtile.load %x[%row, %cols] : memref<32x64xf32>[index, tensor<64xindex>] -> tensor<64xf32>
  %n = arith.constant dense<48> : tensor<64xindex>
  %in = arith.cmpi slt, %cols, %n : tensor<64xindex>
  %masked = xtile.load %x[%row, %cols] mask %in : tensor<64xi1> : memref<32x64xf32>[index, tensor<64xindex>] -> tensor<64xf32>
  %zero = arith.constant 0.0 : f32
  %padded = xtile.load %x[%rows, %cols] mask %in : tensor<64xi1> other %zero : f32 : memref<32x64xf32>[tensor<64xindex>, tensor<64xindex>] -> tensor<64xf32>
  xtile.store %padded, %y[%row, %cols] : memref<32x64xf32>[index, tensor<64xindex>], tensor<64xf32>
}

// Stores: scalar-only indices (one element), tile indices, mixed scalar and
// tile indices, with a mask.
// CHECK-LABEL: xtile.kernel @stores(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<16x16xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<16x16xf32>, %[[Z:[a-zA-Z0-9_]+]]: memref<16x16xf32>) attributes {grid = array<i64: 16>, num_warps = 1 : i64} {
// CHECK-NEXT:    %[[ROW:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[ONE:[a-zA-Z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    xtile.store %[[ONE]], %[[Y]][%[[ROW]], %[[C3]]] : memref<16x16xf32>[index, index], f32
// CHECK-NEXT:    %[[COLS:[a-zA-Z0-9_]+]] = xtile.range 0 to 16 : tensor<16xindex>
// CHECK-NEXT:    %[[ROWS:[a-zA-Z0-9_]+]] = xtile.splat %[[ROW]] : index -> tensor<16xindex>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROWS]], %[[COLS]]] : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>] -> tensor<16xf32>
// CHECK-NEXT:    xtile.store %[[V]], %[[Y]][%[[ROWS]], %[[COLS]]] : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>], tensor<16xf32>
// CHECK-NEXT:    xtile.store %[[V]], %[[Z]][%[[ROW]], %[[COLS]]] : memref<16x16xf32>[index, tensor<16xindex>], tensor<16xf32>
// CHECK-NEXT:    %[[N:[a-zA-Z0-9_]+]] = arith.constant dense<10> : tensor<16xindex>
// CHECK-NEXT:    %[[IN:[a-zA-Z0-9_]+]] = arith.cmpi ult, %[[COLS]], %[[N]] : tensor<16xindex>
// CHECK-NEXT:    xtile.store %[[V]], %[[Z]][%[[ROWS]], %[[COLS]]] mask %[[IN]] : tensor<16xi1> : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>], tensor<16xf32>
// CHECK-NEXT:  }
xtile.kernel @stores(%x: memref<16x16xf32>) -> (%y: memref<16x16xf32>, %z: memref<16x16xf32>)
    attributes {grid = array<i64: 16>, num_warps = 1 : i64} {
  %row = xtile.program_id 0
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  xtile.store %one, %y[%row, %c3] : memref<16x16xf32>[index, index], f32
  %cols = xtile.range 0 to 16 : tensor<16xindex>
  %rows = xtile.splat %row : index -> tensor<16xindex>
  %v = xtile.load %x[%rows, %cols] : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>] -> tensor<16xf32>
  xtile.store %v, %y[%rows, %cols] : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>], tensor<16xf32>
  xtile.store %v, %z[%row, %cols] : memref<16x16xf32>[index, tensor<16xindex>], tensor<16xf32>
  %n = arith.constant dense<10> : tensor<16xindex>
  %in = arith.cmpi ult, %cols, %n : tensor<16xindex>
  xtile.store %v, %z[%rows, %cols] mask %in : tensor<16xi1> : memref<16x16xf32>[tensor<16xindex>, tensor<16xindex>], tensor<16xf32>
}

//===----------------------------------------------------------------------===//
// xtile.fold
//===----------------------------------------------------------------------===//

// Every combine: add, mul, max, min on floats; and, or on i1 and on i32; add on
// i32.
// CHECK-LABEL: xtile.kernel @fold_combines(
// CHECK-SAME:      %[[F:[a-zA-Z0-9_]+]]: memref<64xf32>, %[[B:[a-zA-Z0-9_]+]]: memref<64xi1>, %[[I:[a-zA-Z0-9_]+]]: memref<64xi32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<8xf32>, %[[ZB:[a-zA-Z0-9_]+]]: memref<2xi1>, %[[ZI:[a-zA-Z0-9_]+]]: memref<2xi32>) attributes {grid = array<i64: 1>, num_warps = 2 : i64} {
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 64 : tensor<64xindex>
// CHECK-NEXT:    %[[VF:[a-zA-Z0-9_]+]] = xtile.load %[[F]][%[[OFFS]]] : memref<64xf32>[tensor<64xindex>] -> tensor<64xf32>
// CHECK-NEXT:    %[[VB:[a-zA-Z0-9_]+]] = xtile.load %[[B]][%[[OFFS]]] : memref<64xi1>[tensor<64xindex>] -> tensor<64xi1>
// CHECK-NEXT:    %[[VI:[a-zA-Z0-9_]+]] = xtile.load %[[I]][%[[OFFS]]] : memref<64xi32>[tensor<64xindex>] -> tensor<64xi32>
// CHECK-NEXT:    %[[ADD:[a-zA-Z0-9_]+]] = xtile.fold add %[[VF]] dims [0] identity 0.000000e+00 : f32 strategy serial : tensor<64xf32> -> f32
// CHECK-NEXT:    %[[MUL:[a-zA-Z0-9_]+]] = xtile.fold mul %[[VF]] dims [0] identity 1.000000e+00 : f32 strategy serial : tensor<64xf32> -> f32
// CHECK-NEXT:    %[[MAX:[a-zA-Z0-9_]+]] = xtile.fold max %[[VF]] dims [0] identity 0xFF800000 : f32 strategy serial : tensor<64xf32> -> f32
// CHECK-NEXT:    %[[MIN:[a-zA-Z0-9_]+]] = xtile.fold min %[[VF]] dims [0] identity 0x7F800000 : f32 strategy serial : tensor<64xf32> -> f32
// CHECK-NEXT:    %[[ANDB:[a-zA-Z0-9_]+]] = xtile.fold and %[[VB]] dims [0] identity true strategy serial : tensor<64xi1> -> i1
// CHECK-NEXT:    %[[ORB:[a-zA-Z0-9_]+]] = xtile.fold or %[[VB]] dims [0] identity false strategy serial : tensor<64xi1> -> i1
// CHECK-NEXT:    %[[ANDI:[a-zA-Z0-9_]+]] = xtile.fold and %[[VI]] dims [0] identity -1 : i32 strategy serial : tensor<64xi32> -> i32
// CHECK-NEXT:    %[[ORI:[a-zA-Z0-9_]+]] = xtile.fold or %[[VI]] dims [0] identity 0 : i32 strategy serial : tensor<64xi32> -> i32
// CHECK-NEXT:    %[[ADDI:[a-zA-Z0-9_]+]] = xtile.fold add %[[VI]] dims [0] identity 0 : i32 strategy serial : tensor<64xi32> -> i32
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:[a-zA-Z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    xtile.store %[[ADD]], %[[Y]][%[[C0]]] : memref<8xf32>[index], f32
// CHECK-NEXT:    xtile.store %[[MUL]], %[[Y]][%[[C1]]] : memref<8xf32>[index], f32
// CHECK-NEXT:    xtile.store %[[MAX]], %[[Y]][%[[C2]]] : memref<8xf32>[index], f32
// CHECK-NEXT:    xtile.store %[[MIN]], %[[Y]][%[[C3]]] : memref<8xf32>[index], f32
// CHECK-NEXT:    xtile.store %[[ANDB]], %[[ZB]][%[[C0]]] : memref<2xi1>[index], i1
// CHECK-NEXT:    xtile.store %[[ORB]], %[[ZB]][%[[C1]]] : memref<2xi1>[index], i1
// CHECK-NEXT:    xtile.store %[[ANDI]], %[[ZI]][%[[C0]]] : memref<2xi32>[index], i32
// CHECK-NEXT:    xtile.store %[[ORI]], %[[ZI]][%[[C1]]] : memref<2xi32>[index], i32
// CHECK-NEXT:  }
xtile.kernel @fold_combines(%f: memref<64xf32>, %b: memref<64xi1>, %i: memref<64xi32>) -> (%y: memref<8xf32>, %zb: memref<2xi1>, %zi: memref<2xi32>)
    attributes {grid = array<i64: 1>, num_warps = 2 : i64} {
  %offs = xtile.range 0 to 64 : tensor<64xindex>
  %vf = xtile.load %f[%offs] : memref<64xf32>[tensor<64xindex>] -> tensor<64xf32>
  %vb = xtile.load %b[%offs] : memref<64xi1>[tensor<64xindex>] -> tensor<64xi1>
  %vi = xtile.load %i[%offs] : memref<64xi32>[tensor<64xindex>] -> tensor<64xi32>
  %add = xtile.fold add %vf dims [0] identity 0.0 : f32 strategy serial : tensor<64xf32> -> f32
  %mul = xtile.fold mul %vf dims [0] identity 1.0 : f32 strategy serial : tensor<64xf32> -> f32
  %max = xtile.fold max %vf dims [0] identity 0xFF800000 : f32 strategy serial : tensor<64xf32> -> f32
  %min = xtile.fold min %vf dims [0] identity 0x7F800000 : f32 strategy serial : tensor<64xf32> -> f32
  %andb = xtile.fold and %vb dims [0] identity true strategy serial : tensor<64xi1> -> i1
  %orb = xtile.fold or %vb dims [0] identity false strategy serial : tensor<64xi1> -> i1
  %andi = xtile.fold and %vi dims [0] identity -1 : i32 strategy serial : tensor<64xi32> -> i32
  %ori = xtile.fold or %vi dims [0] identity 0 : i32 strategy serial : tensor<64xi32> -> i32
  %addi = xtile.fold add %vi dims [0] identity 0 : i32 strategy serial : tensor<64xi32> -> i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  xtile.store %add, %y[%c0] : memref<8xf32>[index], f32
  xtile.store %mul, %y[%c1] : memref<8xf32>[index], f32
  xtile.store %max, %y[%c2] : memref<8xf32>[index], f32
  xtile.store %min, %y[%c3] : memref<8xf32>[index], f32
  xtile.store %andb, %zb[%c0] : memref<2xi1>[index], i1
  xtile.store %orb, %zb[%c1] : memref<2xi1>[index], i1
  xtile.store %andi, %zi[%c0] : memref<2xi32>[index], i32
  xtile.store %ori, %zi[%c1] : memref<2xi32>[index], i32
}

// Every strategy: serial without the unit attributes, warp, block and split with
// {associative, commutative}, and serial with them too.
// CHECK-LABEL: xtile.kernel @fold_strategies(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<256xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 8 : i64} {
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 256 : tensor<256xindex>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[OFFS]]] : memref<256xf32>[tensor<256xindex>] -> tensor<256xf32>
// CHECK-NEXT:    %[[S0:[a-zA-Z0-9_]+]] = xtile.fold add %[[V]] dims [0] identity 0.000000e+00 : f32 strategy serial : tensor<256xf32> -> f32
// CHECK-NEXT:    %[[S1:[a-zA-Z0-9_]+]] = xtile.fold add %[[V]] dims [0] identity 0.000000e+00 : f32 strategy warp {associative, commutative} : tensor<256xf32> -> f32
// CHECK-NEXT:    %[[S2:[a-zA-Z0-9_]+]] = xtile.fold max %[[V]] dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<256xf32> -> f32
// CHECK-NEXT:    %[[S3:[a-zA-Z0-9_]+]] = xtile.fold min %[[V]] dims [0] identity 0x7F800000 : f32 strategy split {associative, commutative} : tensor<256xf32> -> f32
// CHECK-NEXT:    %[[S4:[a-zA-Z0-9_]+]] = xtile.fold mul %[[V]] dims [0] identity 1.000000e+00 : f32 strategy serial {associative, commutative} : tensor<256xf32> -> f32
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    xtile.store %[[S1]], %[[Y]][%[[C0]]] : memref<4xf32>[index], f32
// CHECK-NEXT:  }
xtile.kernel @fold_strategies(%x: memref<256xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 8 : i64} {
  %offs = xtile.range 0 to 256 : tensor<256xindex>
  %v = xtile.load %x[%offs] : memref<256xf32>[tensor<256xindex>] -> tensor<256xf32>
  %s0 = xtile.fold add %v dims [0] identity 0.0 : f32 strategy serial : tensor<256xf32> -> f32
  %s1 = xtile.fold add %v dims [0] identity 0.0 : f32 strategy warp {associative, commutative} : tensor<256xf32> -> f32
  %s2 = xtile.fold max %v dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<256xf32> -> f32
  %s3 = xtile.fold min %v dims [0] identity 0x7F800000 : f32 strategy split {associative, commutative} : tensor<256xf32> -> f32
  %s4 = xtile.fold mul %v dims [0] identity 1.0 : f32 strategy serial {associative, commutative} : tensor<256xf32> -> f32
  %c0 = arith.constant 0 : index
  xtile.store %s1, %y[%c0] : memref<4xf32>[index], f32
}

// Partial reductions of a 2-D tile to a 1-D tile along either dimension, and a
// full reduction to a scalar.
// CHECK-LABEL: xtile.kernel @fold_partial(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<32x64xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<32xf32>, %[[Z:[a-zA-Z0-9_]+]]: memref<64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = xtile.range 0 to 32 : tensor<32xindex>
// CHECK-NEXT:    %[[C:[a-zA-Z0-9_]+]] = xtile.range 0 to 64 : tensor<64xindex>
// CHECK-NEXT:    %[[R2:[a-zA-Z0-9_]+]] = xtile.reshape %[[R]] : tensor<32xindex> -> tensor<32x1xindex>
// CHECK-NEXT:    %[[C2:[a-zA-Z0-9_]+]] = xtile.reshape %[[C]] : tensor<64xindex> -> tensor<1x64xindex>
// CHECK-NEXT:    %[[ROWS:[a-zA-Z0-9_]+]] = xtile.broadcast %[[R2]] : tensor<32x1xindex> -> tensor<32x64xindex>
// CHECK-NEXT:    %[[COLS:[a-zA-Z0-9_]+]] = xtile.broadcast %[[C2]] : tensor<1x64xindex> -> tensor<32x64xindex>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[ROWS]], %[[COLS]]] : memref<32x64xf32>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf32>
// CHECK-NEXT:    %[[PER_ROW:[a-zA-Z0-9_]+]] = xtile.fold add %[[V]] dims [1] identity 0.000000e+00 : f32 strategy warp {associative, commutative} : tensor<32x64xf32> -> tensor<32xf32>
// CHECK-NEXT:    %[[PER_COL:[a-zA-Z0-9_]+]] = xtile.fold max %[[V]] dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<32x64xf32> -> tensor<64xf32>
// CHECK-NEXT:    %[[TOTAL:[a-zA-Z0-9_]+]] = xtile.fold add %[[V]] dims [0, 1] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<32x64xf32> -> f32
// CHECK-NEXT:    xtile.store %[[PER_ROW]], %[[Y]][%[[R]]] : memref<32xf32>[tensor<32xindex>], tensor<32xf32>
// CHECK-NEXT:    xtile.store %[[PER_COL]], %[[Z]][%[[C]]] : memref<64xf32>[tensor<64xindex>], tensor<64xf32>
// CHECK-NEXT:  }
xtile.kernel @fold_partial(%x: memref<32x64xf32>) -> (%y: memref<32xf32>, %z: memref<64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %r = xtile.range 0 to 32 : tensor<32xindex>
  %c = xtile.range 0 to 64 : tensor<64xindex>
  %r2 = xtile.reshape %r : tensor<32xindex> -> tensor<32x1xindex>
  %c2 = xtile.reshape %c : tensor<64xindex> -> tensor<1x64xindex>
  %rows = xtile.broadcast %r2 : tensor<32x1xindex> -> tensor<32x64xindex>
  %cols = xtile.broadcast %c2 : tensor<1x64xindex> -> tensor<32x64xindex>
  %v = xtile.load %x[%rows, %cols] : memref<32x64xf32>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf32>
  %per_row = xtile.fold add %v dims [1] identity 0.0 : f32 strategy warp {associative, commutative} : tensor<32x64xf32> -> tensor<32xf32>
  %per_col = xtile.fold max %v dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<32x64xf32> -> tensor<64xf32>
  %total = xtile.fold add %v dims [0, 1] identity 0.0 : f32 strategy block {associative, commutative} : tensor<32x64xf32> -> f32
  xtile.store %per_row, %y[%r] : memref<32xf32>[tensor<32xindex>], tensor<32xf32>
  xtile.store %per_col, %z[%c] : memref<64xf32>[tensor<64xindex>], tensor<64xf32>
}

//===----------------------------------------------------------------------===//
// xtile.dot and tile arithmetic
//===----------------------------------------------------------------------===//

// dot on f32 tiles, and on bf16 and f16 tiles accumulating in f32.
// CHECK-LABEL: xtile.kernel @dots(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<16x16xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<16x16xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
// CHECK-NEXT:    %[[A:[a-zA-Z0-9_]+]] = arith.constant dense<1.000000e+00> : tensor<16x32xf32>
// CHECK-NEXT:    %[[B:[a-zA-Z0-9_]+]] = arith.constant dense<2.000000e+00> : tensor<32x16xf32>
// CHECK-NEXT:    %[[ACC:[a-zA-Z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT:    %[[D32:[a-zA-Z0-9_]+]] = xtile.dot %[[A]], %[[B]], %[[ACC]] : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>
// CHECK-NEXT:    %[[AB:[a-zA-Z0-9_]+]] = arith.constant dense<1.000000e+00> : tensor<16x32xbf16>
// CHECK-NEXT:    %[[BB:[a-zA-Z0-9_]+]] = arith.constant dense<2.000000e+00> : tensor<32x16xbf16>
// CHECK-NEXT:    %[[DBF:[a-zA-Z0-9_]+]] = xtile.dot %[[AB]], %[[BB]], %[[D32]] : tensor<16x32xbf16>, tensor<32x16xbf16>, tensor<16x16xf32>
// CHECK-NEXT:    %[[AH:[a-zA-Z0-9_]+]] = arith.constant dense<1.000000e+00> : tensor<16x32xf16>
// CHECK-NEXT:    %[[BH:[a-zA-Z0-9_]+]] = arith.constant dense<2.000000e+00> : tensor<32x16xf16>
// CHECK-NEXT:    %[[DH:[a-zA-Z0-9_]+]] = xtile.dot %[[AH]], %[[BH]], %[[DBF]] : tensor<16x32xf16>, tensor<32x16xf16>, tensor<16x16xf32>
// CHECK-NEXT:  }
xtile.kernel @dots(%x: memref<16x16xf32>) -> (%y: memref<16x16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %a = arith.constant dense<1.0> : tensor<16x32xf32>
  %b = arith.constant dense<2.0> : tensor<32x16xf32>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %d32 = xtile.dot %a, %b, %acc : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>
  %ab = arith.constant dense<1.0> : tensor<16x32xbf16>
  %bb = arith.constant dense<2.0> : tensor<32x16xbf16>
  %dbf = xtile.dot %ab, %bb, %d32 : tensor<16x32xbf16>, tensor<32x16xbf16>, tensor<16x16xf32>
  %ah = arith.constant dense<1.0> : tensor<16x32xf16>
  %bh = arith.constant dense<2.0> : tensor<32x16xf16>
  %dh = xtile.dot %ah, %bh, %dbf : tensor<16x32xf16>, tensor<32x16xf16>, tensor<16x16xf32>
}

// Tile arithmetic with upstream arith and math on tensors (a softmax).
// CHECK-LABEL: xtile.kernel @tile_arith(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<128xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<128xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 128 : tensor<128xindex>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xtile.load %[[X]][%[[OFFS]]] : memref<128xf32>[tensor<128xindex>] -> tensor<128xf32>
// CHECK-NEXT:    %[[M:[a-zA-Z0-9_]+]] = xtile.fold max %[[V]] dims [0] identity 0xFF800000 : f32 strategy warp {associative, commutative} : tensor<128xf32> -> f32
// CHECK-NEXT:    %[[MS:[a-zA-Z0-9_]+]] = xtile.splat %[[M]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    %[[D:[a-zA-Z0-9_]+]] = arith.subf %[[V]], %[[MS]] : tensor<128xf32>
// CHECK-NEXT:    %[[E:[a-zA-Z0-9_]+]] = math.exp %[[D]] : tensor<128xf32>
// CHECK-NEXT:    %[[S:[a-zA-Z0-9_]+]] = xtile.fold add %[[E]] dims [0] identity 0.000000e+00 : f32 strategy warp {associative, commutative} : tensor<128xf32> -> f32
// CHECK-NEXT:    %[[SS:[a-zA-Z0-9_]+]] = xtile.splat %[[S]] : f32 -> tensor<128xf32>
// CHECK-NEXT:    %[[P:[a-zA-Z0-9_]+]] = arith.divf %[[E]], %[[SS]] : tensor<128xf32>
// CHECK-NEXT:    %[[Q:[a-zA-Z0-9_]+]] = math.sqrt %[[P]] : tensor<128xf32>
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = arith.maximumf %[[P]], %[[Q]] : tensor<128xf32>
// CHECK-NEXT:    xtile.store %[[R]], %[[Y]][%[[OFFS]]] : memref<128xf32>[tensor<128xindex>], tensor<128xf32>
// CHECK-NEXT:  }
xtile.kernel @tile_arith(%x: memref<128xf32>) -> (%y: memref<128xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %offs = xtile.range 0 to 128 : tensor<128xindex>
  %v = xtile.load %x[%offs] : memref<128xf32>[tensor<128xindex>] -> tensor<128xf32>
  %m = xtile.fold max %v dims [0] identity 0xFF800000 : f32 strategy warp {associative, commutative} : tensor<128xf32> -> f32
  %ms = xtile.splat %m : f32 -> tensor<128xf32>
  %d = arith.subf %v, %ms : tensor<128xf32>
  %e = math.exp %d : tensor<128xf32>
  %s = xtile.fold add %e dims [0] identity 0.0 : f32 strategy warp {associative, commutative} : tensor<128xf32> -> f32
  %ss = xtile.splat %s : f32 -> tensor<128xf32>
  %p = arith.divf %e, %ss : tensor<128xf32>
  %q = math.sqrt %p : tensor<128xf32>
  %r = arith.maximumf %p, %q : tensor<128xf32>
  xtile.store %r, %y[%offs] : memref<128xf32>[tensor<128xindex>], tensor<128xf32>
}

// A tiled matmul: scf.for over K carrying the dot accumulator in iter_args.
// CHECK-LABEL: xtile.kernel @matmul(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<128x256xbf16>, %[[B:[a-zA-Z0-9_]+]]: memref<256x64xbf16>) -> (%[[C:[a-zA-Z0-9_]+]]: memref<128x64xf32>) attributes {grid = array<i64: 2, 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4>} {
// CHECK-NEXT:    %[[PM:[a-zA-Z0-9_]+]] = xtile.program_id 0
// CHECK-NEXT:    %[[PN:[a-zA-Z0-9_]+]] = xtile.program_id 1
// CHECK-NEXT:    %[[RM:[a-zA-Z0-9_]+]] = xtile.range 0 to 64 : tensor<64xindex>
// CHECK-NEXT:    %[[RK:[a-zA-Z0-9_]+]] = xtile.range 0 to 32 : tensor<32xindex>
// CHECK-NEXT:    %[[BM:[a-zA-Z0-9_]+]] = arith.constant 64 : index
// CHECK-NEXT:    %[[M0:[a-zA-Z0-9_]+]] = arith.muli %[[PM]], %[[BM]] : index
// CHECK-NEXT:    %[[M0S:[a-zA-Z0-9_]+]] = xtile.splat %[[M0]] : index -> tensor<64xindex>
// CHECK-NEXT:    %[[ROWS:[a-zA-Z0-9_]+]] = arith.addi %[[M0S]], %[[RM]] : tensor<64xindex>
// CHECK-NEXT:    %[[ROWS2:[a-zA-Z0-9_]+]] = xtile.reshape %[[ROWS]] : tensor<64xindex> -> tensor<64x1xindex>
// CHECK-NEXT:    %[[AM:[a-zA-Z0-9_]+]] = xtile.broadcast %[[ROWS2]] : tensor<64x1xindex> -> tensor<64x32xindex>
// CHECK-NEXT:    %[[RK2:[a-zA-Z0-9_]+]] = xtile.reshape %[[RK]] : tensor<32xindex> -> tensor<1x32xindex>
// CHECK-NEXT:    %[[AK:[a-zA-Z0-9_]+]] = xtile.broadcast %[[RK2]] : tensor<1x32xindex> -> tensor<64x32xindex>
// CHECK-NEXT:    %[[RKC:[a-zA-Z0-9_]+]] = xtile.reshape %[[RK]] : tensor<32xindex> -> tensor<32x1xindex>
// CHECK-NEXT:    %[[BK:[a-zA-Z0-9_]+]] = xtile.broadcast %[[RKC]] : tensor<32x1xindex> -> tensor<32x64xindex>
// CHECK-NEXT:    %[[RN2:[a-zA-Z0-9_]+]] = xtile.reshape %[[RM]] : tensor<64xindex> -> tensor<1x64xindex>
// CHECK-NEXT:    %[[BN:[a-zA-Z0-9_]+]] = xtile.broadcast %[[RN2]] : tensor<1x64xindex> -> tensor<32x64xindex>
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C256:[a-zA-Z0-9_]+]] = arith.constant 256 : index
// CHECK-NEXT:    %[[C32:[a-zA-Z0-9_]+]] = arith.constant 32 : index
// CHECK-NEXT:    %[[ACC:[a-zA-Z0-9_]+]] = scf.for %[[K:[a-zA-Z0-9_]+]] = %[[C0]] to %[[C256]] step %[[C32]] iter_args(%[[SUM:[a-zA-Z0-9_]+]] = %[[ZERO]]) -> (tensor<64x64xf32>) {
// CHECK-NEXT:      %[[KS:[a-zA-Z0-9_]+]] = xtile.splat %[[K]] : index -> tensor<64x32xindex>
// CHECK-NEXT:      %[[AKI:[a-zA-Z0-9_]+]] = arith.addi %[[AK]], %[[KS]] : tensor<64x32xindex>
// CHECK-NEXT:      %[[AT:[a-zA-Z0-9_]+]] = xtile.load %[[A]][%[[AM]], %[[AKI]]] : memref<128x256xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
// CHECK-NEXT:      %[[KB:[a-zA-Z0-9_]+]] = xtile.splat %[[K]] : index -> tensor<32x64xindex>
// CHECK-NEXT:      %[[BKI:[a-zA-Z0-9_]+]] = arith.addi %[[BK]], %[[KB]] : tensor<32x64xindex>
// CHECK-NEXT:      %[[BT:[a-zA-Z0-9_]+]] = xtile.load %[[B]][%[[BKI]], %[[BN]]] : memref<256x64xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
// CHECK-NEXT:      %[[NEXT:[a-zA-Z0-9_]+]] = xtile.dot %[[AT]], %[[BT]], %[[SUM]] : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
// CHECK-NEXT:      scf.yield %[[NEXT]] : tensor<64x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[CM:[a-zA-Z0-9_]+]] = xtile.broadcast %[[ROWS2]] : tensor<64x1xindex> -> tensor<64x64xindex>
// CHECK-NEXT:    %[[CN0:[a-zA-Z0-9_]+]] = xtile.reshape %[[RM]] : tensor<64xindex> -> tensor<1x64xindex>
// CHECK-NEXT:    %[[CN:[a-zA-Z0-9_]+]] = xtile.broadcast %[[CN0]] : tensor<1x64xindex> -> tensor<64x64xindex>
// CHECK-NEXT:    xtile.store %[[ACC]], %[[C]][%[[CM]], %[[CN]]] : memref<128x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
// CHECK-NEXT:  }
xtile.kernel @matmul(%a: memref<128x256xbf16>, %b: memref<256x64xbf16>) -> (%c: memref<128x64xf32>)
    attributes {grid = array<i64: 2, 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4>} {
  %pm = xtile.program_id 0
  %pn = xtile.program_id 1
  %rm = xtile.range 0 to 64 : tensor<64xindex>
  %rk = xtile.range 0 to 32 : tensor<32xindex>
  %bm = arith.constant 64 : index
  %m0 = arith.muli %pm, %bm : index
  %m0s = xtile.splat %m0 : index -> tensor<64xindex>
  %rows = arith.addi %m0s, %rm : tensor<64xindex>
  %rows2 = xtile.reshape %rows : tensor<64xindex> -> tensor<64x1xindex>
  %am = xtile.broadcast %rows2 : tensor<64x1xindex> -> tensor<64x32xindex>
  %rk2 = xtile.reshape %rk : tensor<32xindex> -> tensor<1x32xindex>
  %ak = xtile.broadcast %rk2 : tensor<1x32xindex> -> tensor<64x32xindex>
  %rkc = xtile.reshape %rk : tensor<32xindex> -> tensor<32x1xindex>
  %bk = xtile.broadcast %rkc : tensor<32x1xindex> -> tensor<32x64xindex>
  %rn2 = xtile.reshape %rm : tensor<64xindex> -> tensor<1x64xindex>
  %bn = xtile.broadcast %rn2 : tensor<1x64xindex> -> tensor<32x64xindex>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c32 = arith.constant 32 : index
  %acc = scf.for %k = %c0 to %c256 step %c32 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    %ks = xtile.splat %k : index -> tensor<64x32xindex>
    %aki = arith.addi %ak, %ks : tensor<64x32xindex>
    %at = xtile.load %a[%am, %aki] : memref<128x256xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %kb = xtile.splat %k : index -> tensor<32x64xindex>
    %bki = arith.addi %bk, %kb : tensor<32x64xindex>
    %bt = xtile.load %b[%bki, %bn] : memref<256x64xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %next = xtile.dot %at, %bt, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %cm = xtile.broadcast %rows2 : tensor<64x1xindex> -> tensor<64x64xindex>
  %cn0 = xtile.reshape %rm : tensor<64xindex> -> tensor<1x64xindex>
  %cn = xtile.broadcast %cn0 : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %c[%cm, %cn] : memref<128x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// A kernel with no inputs, reading its second grid coordinate.
// CHECK-LABEL: xtile.kernel @no_inputs(
// CHECK-SAME:      ) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<4xi32>) attributes {grid = array<i64: 1, 1>, num_warps = 1 : i64} {
// CHECK-NEXT:    %[[OFFS:[a-zA-Z0-9_]+]] = xtile.range 0 to 4 : tensor<4xi32>
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[P:[a-zA-Z0-9_]+]] = xtile.program_id 1
// CHECK-NEXT:    %[[PI:[a-zA-Z0-9_]+]] = arith.index_cast %[[P]] : index to i32
// CHECK-NEXT:    %[[PS:[a-zA-Z0-9_]+]] = xtile.splat %[[PI]] : i32 -> tensor<4xi32>
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = arith.addi %[[OFFS]], %[[PS]] : tensor<4xi32>
// CHECK-NEXT:    %[[IDX:[a-zA-Z0-9_]+]] = xtile.range 0 to 4 : tensor<4xindex>
// CHECK-NEXT:    xtile.store %[[V]], %[[Y]][%[[IDX]]] : memref<4xi32>[tensor<4xindex>], tensor<4xi32>
// CHECK-NEXT:  }
xtile.kernel @no_inputs() -> (%y: memref<4xi32>)
    attributes {grid = array<i64: 1, 1>, num_warps = 1 : i64} {
  %offs = xtile.range 0 to 4 : tensor<4xi32>
  %c0 = arith.constant 0 : index
  %p = xtile.program_id 1
  %pi = arith.index_cast %p : index to i32
  %ps = xtile.splat %pi : i32 -> tensor<4xi32>
  %v = arith.addi %offs, %ps : tensor<4xi32>
  %idx = xtile.range 0 to 4 : tensor<4xindex>
  xtile.store %v, %y[%idx] : memref<4xi32>[tensor<4xindex>], tensor<4xi32>
}

// Rank-0 buffers: loads and stores without indices.
// CHECK-LABEL: xtile.kernel @rank0(
// CHECK:         %[[V:[a-zA-Z0-9_]+]] = xtile.load %{{.*}}[] : memref<f32> -> f32
// CHECK-NEXT:    xtile.store %[[V]], %{{.*}}[] : memref<f32>, f32
xtile.kernel @rank0(%a: memref<f32>) -> (%b: memref<f32>) attributes {grid = array<i64: 1>, num_warps = 1 : i64} {
  %v = xtile.load %a[] : memref<f32> -> f32
  xtile.store %v, %b[] : memref<f32>, f32
}
