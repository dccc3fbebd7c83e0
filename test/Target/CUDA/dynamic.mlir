// RUN: xtile-translate --mlir-to-cuda %s | FileCheck %s

// A program over a dynamic size T: it takes T after its buffers, rejects a
// T outside its range before anything runs, allocates and copies by T, and
// launches on a grid computed from T; the packed entry takes the sizes.
xkernel.func @copy_rows(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>, %n: index)
    attributes {max_threads = 128 : i64} {
  xkernel.return
}
xkernel.program @rows[%T = 1 to 8192](%in: memref<?x2xf32> [%T]) -> (%out: memref<?x2xf32> [%T]) attributes {size_names = ["T"]} {
  %t = xkernel.alloc(%T) : memref<?x2xf32>
  xkernel.launch @copy_rows(%in, %t) sizes(%T) grid [64, 1, 1] map affine_map<()[s0] -> (s0 ceildiv 128)> block [128, 1, 1] shared 0 : memref<?x2xf32>, memref<?x2xf32>
  xkernel.copy %t to %out : memref<?x2xf32>
}

// CHECK: extern "C" __global__ void __launch_bounds__(128)
// CHECK-NEXT: copy_rows(const float* __restrict__ in0, float* __restrict__ out0, int64_t arg2) {
// CHECK: static cudaError_t xt_program_rows(const float* in0, float* out0, int64_t size_T, cudaStream_t stream) {
// CHECK-NEXT:   if (size_T < 1LL || size_T > 8192LL) return cudaErrorInvalidValue;
// CHECK:        cudaMallocAsync((void**)&tmp0, (size_t)size_T * 8ULL, stream)
// CHECK:        xt_launch(copy_rows, dim3((unsigned)((size_T + 128LL - 1) / 128LL), 1, 1), dim3(128, 1, 1), 0, stream, in0, tmp0, (int64_t)size_T)
// CHECK:        cudaMemcpyAsync(out0, tmp0, (size_t)size_T * 8ULL, cudaMemcpyDeviceToDevice, stream)
// CHECK: extern "C" cudaError_t rows(const float* in0, float* out0, int64_t size_T, cudaStream_t stream) {
// CHECK-NOT: rows_packed(
// CHECK: extern "C" cudaError_t rows_packed_sizes(void** buffers, const int64_t* sizes, cudaStream_t stream) {
// CHECK-NEXT:   return xt_program_rows((const float*)buffers[0], (float*)buffers[1], sizes[0], stream);
