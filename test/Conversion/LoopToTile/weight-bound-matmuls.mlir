// How the cost model prices weight-bound matmuls (Llama-3-8B projections on
// sm_90a at a few tokens):
// - M = 16: one block of rows reads every column panel of the weights once
//   per wave (not sqrt(W) of them), and a pipeline of 3 stages of 16 x 64 x
//   32 tiles keeps too few bytes in flight to stream them at full
//   bandwidth (Little's law): 16 x 64 x 128 tiles win, whose K steps also
//   amortize the loop's instructions;
// - M = 128 of gate+up, bound by reading 235 MB of weights whatever the
//   tile: the schedule with less work wins (wgmma, warp-specialized: its
//   producer keeps 2 steps of copies in flight where the block-wide loop
//   keeps 1, and its consumers issue less), not the first one enumerated.
// RUN: xtile-opt %s --lower-to-tile="target=sm_90a schedule-report=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json

// The report lists each kernel's candidates, then its choice.
// CHECK: "name": "dot:16x64x32:3:4:mma1x4",
// CHECK-NEXT: "schedule":
// CHECK-NEXT: "why": "{{[0-9]+}}% of bandwidth in flight, 64 tile(s) in 1 wave(s), memory-bound, 15 KiB shared"
// CHECK: "kernel": "o16_matmul",
// CHECK: "name": "dot:16x64x128:3:4:mma1x4",
// CHECK-NEXT: "reason": "lowest estimated time",
func.func @o16(%x: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %y = xtensor.linear %x, %w : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xbf16>
  return %y : tensor<16x4096xbf16>
}

// CHECK: "kernel": "gate_up128_matmul",
// CHECK: "name": "dot:128x256x64:3:8:wgmma:ws",
// CHECK-NEXT: "reason": "lowest estimated time",
func.func @gate_up128(%x: tensor<128x4096xbf16>, %w: tensor<28672x4096xbf16>) -> tensor<128x28672xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x4096xbf16>, tensor<28672x4096xbf16>) -> tensor<128x28672xbf16>
  return %y : tensor<128x28672xbf16>
}

// The same choice on sm_80, where 1.2 MB in flight saturate the bandwidth:
// 16 x 64 x 32 tiles keep 80% of it in flight with 4 stages, and K steps of
// 128 also issue fewer of the loop's instructions per FLOP.
// RUN: xtile-opt %s --lower-to-tile="target=sm_80 schedule-report=%t.80.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.80.json --check-prefix=SM80
// SM80: "kernel": "o16_matmul",
// SM80: "name": "dot:16x64x128:3:4:mma1x4",
// SM80-NEXT: "reason": "lowest estimated time",
