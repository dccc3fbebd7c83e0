// RUN: not xtile-translate --mlir-to-launch-plan %s --split-input-file 2>&1 | FileCheck %s

// CHECK: offset :[[@LINE+1]]:1: error: cannot write 'func.func' into a launch plan: expected Kernel IR (xkernel.func, xkernel.program); run --lower-to-kernel first
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A module of kernels alone has no programs.
// CHECK: {{^}}{{{$}}
// CHECK-NEXT: "programs": []
// CHECK-NEXT: {{^}}}{{$}}
xkernel.func @k(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
