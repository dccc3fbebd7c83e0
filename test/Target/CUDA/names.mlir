// RUN: xtile-translate --mlir-to-cuda %s | FileCheck %s

// A kernel or program named as a C++ keyword or a C library function gets
// an underscore in C; the packed entry keeps the symbol, as runtimes look it
// up by name.
// CHECK: extern "C" __global__ void __launch_bounds__(32)
// CHECK-NEXT: float_(float* __restrict__ out0) {
// CHECK: extern "C" __global__ void __launch_bounds__(32)
// CHECK-NEXT: expf_(float* __restrict__ out0) {
// CHECK: static cudaError_t xt_program_double_(float* out0, cudaStream_t stream) {
// CHECK: xt_launch(float_, dim3(1, 1, 1), dim3(32, 1, 1), 0, stream, out0)
// CHECK: extern "C" cudaError_t double_(float* out0, cudaStream_t stream) {
// CHECK-NEXT: return xt_program_double_(out0, stream);
// CHECK: extern "C" cudaError_t double_packed(void** buffers, cudaStream_t stream) {
// CHECK-NEXT: return xt_program_double_((float*)buffers[0], stream);
// CHECK: extern "C" cudaError_t malloc_(float* out0, cudaStream_t stream) {
// CHECK: extern "C" cudaError_t malloc_packed(void** buffers, cudaStream_t stream) {
// Under the emulation, the kernels by their PTX names, for the emulated
// CUDA driver.
// CHECK:      #ifdef XTILE_EMULATION
// CHECK-NEXT: extern "C" const xt_emu::DriverKernel xt_emu_kernels[] = {
// CHECK-NEXT:     {"float", &xt_emu::packed<&float_>},
// CHECK-NEXT:     {"expf", &xt_emu::packed<&expf_>},
// CHECK-NEXT:     {nullptr, nullptr}};
// CHECK-NEXT: #endif
xkernel.func @float(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
xkernel.program @double() -> (%y: memref<4xf32>) {
  xkernel.launch @float(%y) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<4xf32>
}
xkernel.func @expf(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
xkernel.program @malloc() -> (%y: memref<4xf32>) {
  xkernel.launch @expf(%y) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<4xf32>
}
