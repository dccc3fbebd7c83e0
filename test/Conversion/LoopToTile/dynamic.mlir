// Loop IR over dynamic sizes lowered to Tile IR: rows over a size become
// programs counted by the kernel's grid map, a contraction's M or N over a
// size gives as many masked output tiles as it needs, and column loops,
// folds and contraction Ks over a size are loops over masked chunks.
//
// RUN: xtile-opt %s --split-input-file --convert-xloop-to-xtile -verify-diagnostics | FileCheck %s

// One program per row of [2, T]: the grid is 2*T, 8192 at T's maximum.
// CHECK: #[[ROWS:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-LABEL: xtile.kernel @rows
// CHECK-SAME:    [%[[T:.*]] = 1 to 4096](%{{.*}}: memref<2x?x64xf32> [%[[T]]]) -> (%{{.*}}: memref<2x?x64xf32> [%[[T]]])
// CHECK-SAME:    grid = array<i64: 8192>, grid_map = #[[ROWS]]
// CHECK-SAME:    size_hints = array<i64: 1024>
// CHECK:         %[[PID:.*]] = xtile.program_id 0
// CHECK:         %[[ROW:.*]] = arith.remui %[[PID]], %[[T]] : index
// CHECK:         %[[REST:.*]] = arith.divui %[[PID]], %[[T]] : index
// CHECK:         %[[B:.*]] = arith.remui %[[REST]], %c2 : index
// CHECK:         xtile.load %{{.*}}[%[[B]], %[[ROW]], %{{.*}}] : memref<2x?x64xf32>
xloop.kernel @rows[%T = 1 to 4096](%x: memref<2x?x64xf32> [%T]) -> (%y: memref<2x?x64xf32> [%T])
    attributes {size_hints = array<i64: 1024>, xtile.schedule = #xtile.row_schedule<block, warps = 1, vector = 2>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %b = 0 to 2 {
    xloop.parallel %t = 0 to %T {
      %s = xloop.fold %c = 0 to 64 combine add init(%zero) : f32 {
        %v = xloop.load %x[%b, %t, %c] : memref<2x?x64xf32>
        xloop.yield %v : f32
      }
      xloop.parallel %c = 0 to 64 {
        %v = xloop.load %x[%b, %t, %c] : memref<2x?x64xf32>
        %w = arith.subf %v, %s : f32
        xloop.store %w, %y[%b, %t, %c] : memref<2x?x64xf32>
      }
    }
  }
}

// -----

// A contraction of [M, 64] x [64, N], M and N dynamic: ceil(M/32) x
// ceil(N/32) tiles, each masked by M and N where a static tile would need
// no mask.
// CHECK: #[[TILES:.*]] = affine_map<()[s0, s1] -> ((s0 ceildiv 32) * (s1 ceildiv 32))>
// CHECK-LABEL: xtile.kernel @matmul
// CHECK-SAME:    [%[[M:.*]] = 1 to 512, %[[N:.*]] = 1 to 128]
// CHECK-SAME:    grid = array<i64: 64>, grid_map = #[[TILES]]
// CHECK:         %[[M1:.*]] = arith.addi %[[M]], %c31 : index
// CHECK:         %[[MB:.*]] = arith.divui %[[M1]], %c32 : index
// CHECK:         %[[N1:.*]] = arith.addi %[[N]], %c31{{.*}} : index
// CHECK:         %[[NB:.*]] = arith.divui %[[N1]], %c32{{.*}} : index
// CHECK:         %[[PID:.*]] = xtile.program_id 0
// CHECK:         arith.remui %[[PID]], %[[NB]] : index
// CHECK:         scf.for
// CHECK:           %[[MS:.*]] = xtile.splat %[[M]] : index -> tensor<32x32xindex>
// CHECK:           arith.cmpi slt, %{{.*}}, %[[MS]] : tensor<32x32xindex>
// CHECK:           %[[NS:.*]] = xtile.splat %[[N]] : index -> tensor<32x32xindex>
// CHECK:           arith.cmpi slt, %{{.*}}, %[[NS]] : tensor<32x32xindex>
// CHECK:           xtile.dot
// CHECK:         xtile.store {{.*}} mask
xloop.kernel @matmul[%M = 1 to 512, %N = 1 to 128](%a: memref<?x64xf32> [%M], %b: memref<64x?xf32> [%N]) -> (%c: memref<?x?xf32> [%M, %N])
    attributes {xtile.schedule = #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to %M {
    xloop.parallel %j = 0 to %N {
      %s = xloop.fold %k = 0 to 64 combine add init(%zero) : f32 {
        %x = xloop.load %a[%i, %k] : memref<?x64xf32>
        %y = xloop.load %b[%k, %j] : memref<64x?xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      xloop.store %s, %c[%i, %j] : memref<?x?xf32>
    }
  }
}

// -----

// A fold over a dynamic length: a loop over masked chunks of the row, to
// the size.
// CHECK-LABEL: xtile.kernel @dynamic_columns
// CHECK-SAME:    [%[[T:.*]] = 1 to 4096]
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args
// CHECK:           %[[LEN:.*]] = xtile.splat %[[T]] : index -> tensor<128xindex>
// CHECK:           %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %[[LEN]] : tensor<128xindex>
// CHECK:           xtile.load {{.*}} mask %[[MASK]]
xloop.kernel @dynamic_columns[%T = 1 to 4096](%x: memref<8x?xf32> [%T]) -> (%y: memref<8xf32>)
    attributes {xtile.schedule = #xtile.row_schedule<block, warps = 4, vector = 1, chunk = 128>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to 8 {
    %s = xloop.fold %c = 0 to %T combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %c] : memref<8x?xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%r] : memref<8xf32>
  }
}

// -----

// It needs a schedule over chunks: a tile of the whole row has no size.
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.row_schedule<block, warps = 1, vector = 1>: a row of a dynamic length needs a loop over chunks of it (chunk > 0)}}
xloop.kernel @dynamic_columns_whole[%T = 1 to 4096](%x: memref<8x?xf32> [%T]) -> (%y: memref<8xf32>)
    attributes {xtile.schedule = #xtile.row_schedule<block, warps = 1, vector = 1>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to 8 {
    %s = xloop.fold %c = 0 to %T combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %c] : memref<8x?xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%r] : memref<8xf32>
  }
}

// -----

// A contraction over a dynamic K: the K loop runs to it, every K tile
// masked by it.
// CHECK-LABEL: xtile.kernel @dynamic_k
// CHECK-SAME:    [%[[K:.*]] = 1 to 4096]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[K]] step
// CHECK:           %[[KS:.*]] = xtile.splat %[[K]] : index -> tensor<32x32xindex>
// CHECK:           arith.cmpi slt, %{{.*}}, %[[KS]] : tensor<32x32xindex>
// CHECK:           xtile.dot
xloop.kernel @dynamic_k[%K = 1 to 4096](%a: memref<32x?xf32> [%K], %b: memref<?x32xf32> [%K]) -> (%c: memref<32x32xf32>)
    attributes {xtile.schedule = #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 32 {
    xloop.parallel %j = 0 to 32 {
      %s = xloop.fold %k = 0 to %K combine add init(%zero) : f32 {
        %x = xloop.load %a[%i, %k] : memref<32x?xf32>
        %y = xloop.load %b[%k, %j] : memref<?x32xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      xloop.store %s, %c[%i, %j] : memref<32x32xf32>
    }
  }
}

// -----

// A split of a dynamic number of rows would need partials per row.
// expected-note @+2 {{a limit of compiling over dynamic sizes}}
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.row_schedule<split, warps = 1, vector = 1, ways = 2>: a split (ways > 0) of a dynamic number of rows is not lowered to Tile IR yet (a row of a dynamic length is)}}
xloop.kernel @split[%T = 1 to 4096](%x: memref<?x64xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {xtile.schedule = #xtile.row_schedule<split, warps = 1, vector = 1, ways = 2>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to %T {
    %s = xloop.fold %c = 0 to 64 combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %c] : memref<?x64xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%r] : memref<?xf32>
  }
}

// -----

// A row of a dynamic length split over ways: the first kernel, over (row,
// way), folds the way's share of the row, ceil(T / (chunk x ways)) whole
// chunks from way x share (none past the end), into [rows, ways] partials;
// the second combines a row's partials and runs the elementwise loop over
// the same share. Both take the size.
// CHECK-LABEL: xtile.kernel @split_dynamic_row_partial[
// CHECK-SAME:      %{{.*}} = 1 to 100000](%[[X:[^:]*]]: memref<4x?xf32> [%[[T:arg[0-9]+]]]) -> (%[[P:[^:]*]]: memref<4x8xf32>)
// CHECK-SAME:      grid = array<i64: 32>
// CHECK-SAME:      schedule = #xtile.row_schedule<split, warps = 4, vector = 1, chunk = 1024, ways = 8>
// CHECK:           %[[PID:.*]] = xtile.program_id 0
// CHECK:           %[[WAY:.*]] = arith.remui %[[PID]], %{{.*}} : index
// CHECK:           %[[ROW:.*]] = arith.divui %[[PID]], %{{.*}} : index
// CHECK:           %[[SHARE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:           %[[START:.*]] = arith.minui %{{.*}}, %[[T]] : index
// CHECK:           %[[END0:.*]] = arith.addi %[[START]], %[[SHARE]] : index
// CHECK:           %[[END:.*]] = arith.minui %[[END0]], %[[T]] : index
// CHECK:           %[[SUM:.*]] = scf.for %{{.*}} = %[[START]] to %[[END]] step %{{.*}} iter_args(
// CHECK:             xtile.load %[[X]]
// CHECK:             xtile.fold
// CHECK:           xtile.store %[[SUM]], %[[P]][%[[ROW]], %[[WAY]]] : memref<4x8xf32>
// CHECK-LABEL: xtile.kernel @split_dynamic_row[
// CHECK-SAME:      %{{.*}} = 1 to 100000](%{{.*}}: memref<4x?xf32> [%{{.*}}], %[[P2:[^:]*]]: memref<4x8xf32>) -> (%{{.*}}: memref<4x?xf32> [%{{.*}}])
// CHECK-SAME:      grid = array<i64: 32>
// CHECK:           xtile.load %[[P2]]
// CHECK:           %[[S:.*]] = xtile.fold add %{{.*}} dims [0] {{.*}} strategy warp
// CHECK:           scf.for %{{.*}} = %[[START2:.*]] to %[[END2:.*]] step
// CHECK:             arith.divf %{{.*}}, %{{.*}} : tensor<1024xf32>
// CHECK:             xtile.store
// CHECK:       xtile.launch @split_dynamic_row_partial[T](%{{.*}}) : (tensor<4x?xf32, #xtensor.dims<T>>) -> tensor<4x8xf32>
// CHECK-NEXT:  xtile.launch @split_dynamic_row[T](%{{.*}}, %{{.*}}) : (tensor<4x?xf32, #xtensor.dims<T>>, tensor<4x8xf32>) -> tensor<4x?xf32, #xtensor.dims<T>>
xloop.kernel @split_dynamic_row[%T = 1 to 100000](%x: memref<4x?xf32> [%T]) -> (%y: memref<4x?xf32> [%T])
    attributes {xtile.schedule = #xtile.row_schedule<split, warps = 4, vector = 1, chunk = 1024, ways = 8>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to 4 {
    %s = xloop.fold %c = 0 to %T combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %c] : memref<4x?xf32>
      xloop.yield %v : f32
    }
    xloop.parallel %c = 0 to %T {
      %v = xloop.load %x[%r, %c] : memref<4x?xf32>
      %q = arith.divf %v, %s : f32
      xloop.store %q, %y[%r, %c] : memref<4x?xf32>
    }
  }
}
func.func @split_dynamic_row_program(%x: tensor<4x?xf32, #xtensor.dims<T>>) -> tensor<4x?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 100000>}} {
  %y = xloop.launch @split_dynamic_row[T](%x) : (tensor<4x?xf32, #xtensor.dims<T>>) -> tensor<4x?xf32, #xtensor.dims<T>>
  return %y : tensor<4x?xf32, #xtensor.dims<T>>
}

// -----

// Without chunks a way's share of a dynamic row has no static tile.
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.row_schedule<split, warps = 4, vector = 1, ways = 8>: a row of a dynamic length needs a loop over chunks of it (chunk > 0)}}
xloop.kernel @split_without_chunks[%T = 1 to 100000](%x: memref<4x?xf32> [%T]) -> (%y: memref<4xf32>)
    attributes {xtile.schedule = #xtile.row_schedule<split, warps = 4, vector = 1, ways = 8>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to 4 {
    %s = xloop.fold %c = 0 to %T combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %c] : memref<4x?xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%r] : memref<4xf32>
  }
}

// -----

// 2^31 rows of 4 at the size's maximum pass CUDA's grid limit.
// expected-note @+2 {{a limit of compiling over dynamic sizes}}
// expected-error @+1 {{'xtile.kernel' op grid map affine_map<()[s0] -> (s0 * 4)> gives [8589934588] programs at the sizes' maxima, past CUDA's grid limits (x < 2^31, y and z <= 65535): declare a narrower range for the sizes}}
xloop.kernel @too_many[%T = 1 to 2147483647](%x: memref<4x?x64xf32> [%T]) -> (%y: memref<4x?xf32> [%T])
    attributes {xtile.schedule = #xtile.row_schedule<block, warps = 1, vector = 1>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %b = 0 to 4 {
    xloop.parallel %r = 0 to %T {
      %s = xloop.fold %c = 0 to 64 combine add init(%zero) : f32 {
        %v = xloop.load %x[%b, %r, %c] : memref<4x?x64xf32>
        xloop.yield %v : f32
      }
      xloop.store %s, %y[%b, %r] : memref<4x?xf32>
    }
  }
}
