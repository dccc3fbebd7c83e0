// Which schedule --xtile-select-schedule chooses for row kernels (how a
// schedule lowers is tested in loop-input.mlir and schedules.mlir).
// RUN: xtile-opt %s --lower-to-loop -o %t.loop.mlir
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule | FileCheck %s
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="target=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="remarks=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// 4096 columns on 1024 rows: a block of warps, 16-byte vectors.
// CHECK-LABEL: xloop.kernel @rmsnorm_
// CHECK-SAME:    xtile.schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4>
// SM80-LABEL:  xloop.kernel @rmsnorm_
// SM80-SAME:     xtile.schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4>
// REPORT:        "facts": {
// REPORT-NEXT:     "bytes": 33570816,
// REPORT-NEXT:     "column_kernel": false,
// REPORT-NEXT:     "columns": 4096,
// REPORT-NEXT:     "contiguous": true,
// REPORT-NEXT:     "element_bytes": 4,
// REPORT-NEXT:     "folds": 1,
// REPORT-NEXT:     "instructions_per_element": 7,
// REPORT-NEXT:     "kind": "row",
// REPORT-NEXT:     "programs": 1024,
// REPORT-NEXT:     "special_functions_per_element": 0,
// REPORT:        "identity": "0x{{[0-9a-f]+}}",
// REPORT-NEXT:   "issue_micros": {{[0-9.e-]+}},
// REPORT-NEXT:   "kernel": "rmsnorm_{{[a-z0-9_]+}}",
// REPORT-NEXT:   "memory_micros": {{[0-9.]+}},
// REPORT-NEXT:   "micros": {{[0-9.]+}},
// REPORT-NEXT:   "name": "block:{{[0-9]+}}:4",
// REPORT-NEXT:   "reason": "lowest estimated time",
// REPORT-NEXT:   "schedule": "#xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4>",
// REPORT-NEXT:   "target": "sm_90"
// REMARK: remark: schedule #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4> (lowest estimated time, estimated {{[0-9.]+}} us of {{[0-9]+}} candidate(s): 100% of bandwidth in flight
func.func @rmsnorm(%x: tensor<1024x4096xf32>, %w: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<1024x4096xf32>, tensor<4096xf32>) -> tensor<1024x4096xf32>
  return %y : tensor<1024x4096xf32>
}

// 32 columns: one warp, one element per lane, shuffles.
// CHECK-LABEL: xloop.kernel @narrow_
// CHECK-SAME:    xtile.schedule = #xtile.row_schedule<warp, warps = 1, vector = 1>
func.func @narrow(%x: tensor<8192x32xf32>, %w: tensor<32xf32>) -> tensor<8192x32xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8192x32xf32>, tensor<32xf32>) -> tensor<8192x32xf32>
  return %y : tensor<8192x32xf32>
}

// 65536 columns on 16 rows, a softmax (its sum uses its max: no split):
// the whole row in one program would need 128 elements of each of three
// tiles per thread, more registers than a block of an SM has, so the row
// is processed in chunks.
// CHECK-LABEL: xloop.kernel @long_
// CHECK-SAME:    xtile.schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = {{[0-9]+}}, chunk = {{[0-9]+}}>
// REPORT-NOT:    "name": "block:16:4",
// REPORT:        "kernel": "long_{{[a-z0-9_]+}}",
func.func @long(%x: tensor<16x65536xf32>) -> tensor<16x65536xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<16x65536xf32>
  return %y : tensor<16x65536xf32>
}

// Eight long rows cannot fill the GPU one program per row: split.
// CHECK-LABEL: xloop.kernel @few_rows_
// CHECK-SAME:    xtile.schedule = #xtile.row_schedule<split, warps = {{[0-9]+}}, vector = {{[0-9]+}}, ways = {{[0-9]+}}>
func.func @few_rows(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8x65536xf32>, tensor<65536xf32>) -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// RUN: not xtile-opt %t.loop.mlir --xtile-select-schedule="report=%t.missing/dir/report.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: cannot write '{{.*}}missing/dir/report.json':
