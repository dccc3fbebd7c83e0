// Schedules per bucket of a dynamic size (--xtile-select-schedule's
// `buckets`): where the schedule chosen at the size's hint costs more than
// 1.1x the best at some size of the range, the range is cut into
// consecutive buckets, each under a schedule within 1.1x of the best at
// every size priced in it; the kernel keeps the first bucket, copies of it
// declare the others, and the launch names them.
// RUN: xtile-opt %s --lower-to-loop -o %t.loop.mlir
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule | FileCheck %s
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="buckets=false" | FileCheck %s --check-prefix=ONE
// At most max-buckets: the split into that many with the lowest worst cost.
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="max-buckets=2" | FileCheck %s --check-prefix=TWO
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule="remarks=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The whole pipeline: each bucket a Tile IR kernel of its own, one launch
// per bucket in the program, each run where T is in its range.
// RUN: xtile-opt %s --lower-to-kernel | FileCheck %s --check-prefix=KERNEL

// A 4096 x 4096 bf16 projection over T in [1, 16384]: the tile that suits
// one token does not suit thousands.
// CHECK-LABEL: xloop.kernel @up_{{[a-z0-9_]+}}[%{{.*}} = 1 to [[#END0:]]]
// CHECK-SAME:      size_hints = array<i64: [[#END0]]>
// CHECK-SAME:      xtile.schedule = #xtile.dot_schedule<
// CHECK:       xloop.kernel @up_{{[a-z0-9_]+}}_b1[%{{.*}} = [[#END0+1]] to [[#END1:]]]
// CHECK-SAME:      xtile.schedule = #xtile.dot_schedule<
// CHECK:       xloop.kernel @up_{{[a-z0-9_]+}}_b{{[0-9]+}}[%{{.*}} = {{[0-9]+}} to 16384]
// CHECK-LABEL: func.func @up
// CHECK:         xloop.launch @[[UP:up_[a-z0-9_]+]][T](%{{.*}}) buckets [@[[UP]]_b1,
// A row kernel whose one schedule is within 1.1x everywhere keeps it.
// CHECK-LABEL: xloop.kernel @rms_norm_
// CHECK-NOT:   _b1
// CHECK-LABEL: func.func @rms_norm
// CHECK-NOT:     buckets
// CHECK:         return
// TWO-LABEL: xloop.kernel @up_{{[a-z0-9_]+}}[%{{.*}} = 1 to [[#TWO:]]]
// TWO:       xloop.kernel @up_{{[a-z0-9_]+}}_b1[%{{.*}} = [[#TWO+1]] to 16384]
// TWO-NOT:   _b2
// TWO:       buckets [@{{[a-z0-9_]+}}_b1]
// ONE-NOT: _b1
// ONE-NOT: buckets
// REPORT:        "buckets": [
// REPORT-NEXT:     {
// REPORT-NEXT:       "max": {{[0-9]+}},
// REPORT-NEXT:       "min": 1,
// REPORT-NEXT:       "name": "dot:{{.*}}",
// REPORT-NEXT:       "schedule": "#xtile.dot_schedule<{{.*}}>",
// REPORT-NEXT:       "worst": 1.0{{[0-9]*}}
// REPORT-NEXT:     },
// REMARK: remark: sizes 1 to {{[0-9]+}}: schedule #xtile.dot_schedule<{{.*}}> (at most 1.0{{[0-9]}}x the best priced there)
// KERNEL:      xkernel.program @up
// KERNEL-NEXT:   xkernel.launch @[[K:up_[a-z0-9_]+]](%{{.*}}) sizes(%{{.*}}) when [1, [[#E:]]] grid
// KERNEL-NEXT:   xkernel.launch @[[K]]_b1(%{{.*}}) sizes(%{{.*}}) when [[[#E+1]], {{[0-9]+}}] grid
func.func @up(%x: tensor<?x4096xbf16, #xtensor.dims<T>>, %w: tensor<4096x4096xbf16>) -> tensor<?x4096xbf16, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %h = xtensor.linear %x, %w : (tensor<?x4096xbf16, #xtensor.dims<T>>, tensor<4096x4096xbf16>) -> tensor<?x4096xbf16, #xtensor.dims<T>>
  %y = xtensor.gelu tanh %h : tensor<?x4096xbf16, #xtensor.dims<T>>
  return %y : tensor<?x4096xbf16, #xtensor.dims<T>>
}

func.func @rms_norm(%x: tensor<?x4096xbf16, #xtensor.dims<T>>, %w: tensor<4096xbf16>) -> tensor<?x4096xbf16, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x4096xbf16, #xtensor.dims<T>>, tensor<4096xbf16>) -> tensor<?x4096xbf16, #xtensor.dims<T>>
  return %y : tensor<?x4096xbf16, #xtensor.dims<T>>
}
