// RUN: xtile-translate --mlir-to-cuda %s | FileCheck %s

// A kernel or program named as a C++ keyword gets an underscore in C; the
// packed entry keeps the symbol, as runtimes look it up by name.
// CHECK: extern "C" __global__ void __launch_bounds__(32)
// CHECK-NEXT: float_(float* __restrict__ out0) {
// CHECK: extern "C" cudaError_t double_(float* out0, cudaStream_t stream) {
// CHECK: xt_launch(float_, dim3(1, 1, 1), dim3(32, 1, 1), 0, stream, out0)
// CHECK: extern "C" cudaError_t double_packed(void** buffers, cudaStream_t stream) {
// CHECK-NEXT: return double_((float*)buffers[0], stream);
xkernel.func @float(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
xkernel.program @double() -> (%y: memref<4xf32>) {
  xkernel.launch @float(%y) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<4xf32>
}
