// Every example becomes CUDA C with one __global__ function per kernel and
// a host function that launches them in order.
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/softmax.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=SOFTMAX
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/layernorm.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=LAYERNORM
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/gelu_mlp.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=MLP
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/attention.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=ATTENTION
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/decoder_layer.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=DECODER

// SOFTMAX-COUNT-1: __global__
// SOFTMAX:         softmax_div(const float* __restrict__ in0, float* __restrict__ out0) {
// SOFTMAX:           xt_maximumf(
// SOFTMAX:           xt_ex2(
// SOFTMAX:           __syncthreads();
// SOFTMAX:         static cudaError_t xt_program_softmax(

// LAYERNORM-COUNT-1: __global__
// LAYERNORM:         xt_rsqrt(
// LAYERNORM:         static cudaError_t xt_program_layernorm(

// The matmul kernels stage their operand tiles in dynamic shared memory and
// accumulate with FMAs; the GELU is the first kernel's epilogue.
// MLP:          __global__
// MLP-NEXT:     gelu_mlp_mul_2(
// MLP:          XT_DYNAMIC_SHARED(xt_dynamic_shared);
// MLP:          #pragma unroll
// MLP-NEXT:     for (int64_t {{i[0-9]+}} = 0; {{i[0-9]+}} < 32; {{i[0-9]+}} += 1) {
// MLP:          fmaf(
// MLP:          xt_ex2(
// MLP:          __global__
// MLP-NEXT:     gelu_mlp_add_6(
// MLP-NOT:      __global__
// MLP:          static cudaError_t xt_program_gelu_mlp(
// MLP:            if ((err = cudaMallocAsync((void**)&tmp0, 8388608ULL, stream)) != cudaSuccess) break;
// MLP:            cudaFuncSetAttribute((const void*)gelu_mlp_mul_2, cudaFuncAttributeMaxDynamicSharedMemorySize,
// MLP-NEXT:       xt_launch(gelu_mlp_mul_2, dim3({{[0-9]+}}, 1, 1), dim3({{[0-9]+}}, 1, 1), {{[0-9]+}}, stream, in0, in2, in1, tmp0)
// MLP:            xt_launch(gelu_mlp_add_6, dim3({{[0-9]+}}, 1, 1), dim3({{[0-9]+}}, 1, 1), {{[0-9]+}}, stream, tmp0, in4, in3, out0)
// MLP:          if (tmp0) cudaFreeAsync(tmp0, stream);

// ATTENTION-COUNT-1: __global__
// ATTENTION-NOT:     __global__
// ATTENTION:         static cudaError_t xt_program_attention(
// ATTENTION-COUNT-1:   xt_launch(
// ATTENTION-NOT:       xt_launch(

// DECODER-COUNT-6: __global__
// DECODER:         static cudaError_t xt_program_decoder_layer(
// DECODER-COUNT-7:   xt_launch(

// Offsets are 64-bit: a row of a 70000 x 32768 tensor starts past 2^31.
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/huge.mlir | xtile-translate --mlir-to-cuda | FileCheck %s --check-prefix=HUGE
// HUGE: int64_t [[ROW:v[0-9]+]] = (int64_t)((uint64_t)block0 % (uint64_t)70000);
// HUGE: int64_t {{v[0-9]+}} = [[ROW]] * 32768;
