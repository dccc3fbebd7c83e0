// Which schedule --xtile-select-schedule chooses for matmuls by element
// type and target: f16 and bf16 on tensor cores (mma.sync on sm_80 and
// sm_90, wgmma warp-specialized on sm_90a), f32 on the FMA pipes unless
// allow-tf32 lets it run on tensor cores on tf32. How these schedules lower
// is test/Conversion/TileToKernel/mma-choice.mlir's.
// RUN: xtile-opt %s --xtile-select-schedule | FileCheck %s
// RUN: xtile-opt %s --xtile-select-schedule="target=sm_80" | FileCheck %s
// RUN: xtile-opt %s --xtile-select-schedule="target=sm_80 allow-tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: xtile-opt %s --xtile-select-schedule="target=sm_90a" | FileCheck %s --check-prefix=WGMMA

// A 4096^3 bf16 matmul: mma.sync on sm_90 and sm_80; on sm_90a wgmma,
// warp-specialized, on 128 x 256 tiles of 8 consumer warps, 3 stages of
// K = 64.
// CHECK-LABEL: xloop.kernel @bf16_matmul(
// CHECK-SAME:    xtile.schedule = #xtile.dot_schedule<{{.*}}, instruction = mma_sync, warps_m = {{[0-9]+}}>
// TF32-LABEL:  xloop.kernel @bf16_matmul(
// TF32-SAME:     xtile.schedule = #xtile.dot_schedule<{{.*}}, instruction = mma_sync, warps_m = {{[0-9]+}}>
// WGMMA-LABEL: xloop.kernel @bf16_matmul(
// WGMMA-SAME:    xtile.schedule = #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 64, stages = 3, warps = 8, instruction = wgmma, warps_m = 8, warp_specialized = true>
xloop.kernel @bf16_matmul(%x: memref<4096x4096xbf16>, %w: memref<4096x4096xbf16>) -> (%y: memref<4096x4096xbf16>) attributes {xloop.identity = "0x68d1d90eb053c714"} {
  %cst = arith.constant 0.000000e+00 : f32
  xloop.parallel %i = 0 to 4096 {
    xloop.parallel %j = 0 to 4096 {
      %0 = xloop.fold %k = 0 to 4096 combine add init(%cst) : f32 {
        %2 = xloop.load %x[%i, %k] : memref<4096x4096xbf16>
        %3 = xloop.load %w[%k, %j] : memref<4096x4096xbf16>
        %4 = arith.extf %2 : bf16 to f32
        %5 = arith.extf %3 : bf16 to f32
        %6 = arith.mulf %4, %5 : f32
        xloop.yield %6 : f32
      }
      %1 = arith.truncf %0 : f32 to bf16
      xloop.store %1, %y[%i, %j] : memref<4096x4096xbf16>
    }
  }
}

// A 128x128x64 f32 matmul stays on the FMA pipes (exact): no instruction
// in its schedule, whatever the target; with allow-tf32, mma.sync on tf32.
// CHECK-LABEL: xloop.kernel @f32_matmul(
// CHECK-SAME:    xtile.schedule = #xtile.dot_schedule<block_m = {{[0-9]+}}, block_n = {{[0-9]+}}, block_k = {{[0-9]+}}, stages = {{[0-9]+}}, warps = {{[0-9]+}}>}
// TF32-LABEL:  xloop.kernel @f32_matmul(
// TF32-SAME:     xtile.schedule = #xtile.dot_schedule<{{.*}}, instruction = mma_sync, tf32 = true>
// WGMMA-LABEL: xloop.kernel @f32_matmul(
// WGMMA-SAME:    xtile.schedule = #xtile.dot_schedule<block_m = {{[0-9]+}}, block_n = {{[0-9]+}}, block_k = {{[0-9]+}}, stages = {{[0-9]+}}, warps = {{[0-9]+}}>}
xloop.kernel @f32_matmul(%x: memref<128x64xf32>, %w: memref<64x128xf32>) -> (%y: memref<128x128xf32>) attributes {xloop.identity = "0x506bf0cd2fd83ef5"} {
  %cst = arith.constant 0.000000e+00 : f32
  xloop.parallel %i = 0 to 128 {
    xloop.parallel %j = 0 to 128 {
      %0 = xloop.fold %k = 0 to 64 combine add init(%cst) : f32 {
        %1 = xloop.load %x[%i, %k] : memref<128x64xf32>
        %2 = xloop.load %w[%k, %j] : memref<64x128xf32>
        %3 = arith.mulf %1, %2 : f32
        xloop.yield %3 : f32
      }
      xloop.store %0, %y[%i, %j] : memref<128x128xf32>
    }
  }
}
