// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-cuda | FileCheck %s

// RMSNorm is one kernel: 16-byte loads of the row and the weight, the sum of
// squares across the warp with shuffles and across the warps through shared
// memory, then 16-byte stores.
// CHECK:       template <typename T, int N> struct alignas(sizeof(T) * N) xt_vec {
// CHECK:       extern "C" __global__ void __launch_bounds__(256)
// CHECK-NEXT:  rmsnorm_mul_2(const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0) {
// CHECK:         int64_t tid0 = (int64_t)threadIdx.x;
// CHECK:         __shared__ __align__(16) float shared0[8];
// CHECK:         int64_t block0 = (int64_t)blockIdx.x;
// CHECK-COUNT-4: xt_vec<float, 4> {{v[0-9]+}} = *reinterpret_cast<const xt_vec<float, 4>*>(in0 + {{v[0-9]+}});
// CHECK:         __shfl_xor_sync(0xffffffffu, {{v[0-9]+}}, 16, 32);
// CHECK:         __shfl_xor_sync(0xffffffffu, {{v[0-9]+}}, 1, 32);
// CHECK:         if ({{v[0-9]+}}) {
// CHECK-NEXT:      shared0[{{v[0-9]+}}] = {{v[0-9]+}};
// CHECK-NEXT:    }
// CHECK-NEXT:    __syncthreads();
// CHECK:         float {{v[0-9]+}} = {{v[0-9]+}} / 4096.0f;
// CHECK:         xt_rsqrt(
// CHECK-COUNT-4: = *reinterpret_cast<const xt_vec<float, 4>*>(in1 + {{v[0-9]+}});
// CHECK-COUNT-4: *reinterpret_cast<xt_vec<float, 4>*>(out0 + {{v[0-9]+}}) = {{v[0-9]+}};
// CHECK-NOT:     __global__
// CHECK:       static cudaError_t xt_program_rmsnorm(const float* in0, const float* in1, float* out0, cudaStream_t stream) {
// CHECK:         if ((err = xt_launch(rmsnorm_mul_2, dim3(4096, 1, 1), dim3(256, 1, 1), 0, stream, in0, in1, out0)) != cudaSuccess) break;
// CHECK:         return err;
// CHECK:       extern "C" cudaError_t rmsnorm(const float* in0, const float* in1, float* out0, cudaStream_t stream) {
// CHECK-NEXT:    return xt_program_rmsnorm(in0, in1, out0, stream);
// CHECK:       extern "C" cudaError_t rmsnorm_packed(void** buffers, cudaStream_t stream) {
// CHECK-NEXT:    return xt_program_rmsnorm((const float*)buffers[0], (const float*)buffers[1], (float*)buffers[2], stream);
