// REQUIRES: ptxas
// Every example's and every edge shape's PTX assembles with ptxas for sm_90
// (and RMSNorm for sm_80): no unresolved externs, no instruction the chip
// lacks; ptxas -v reports no spills for the examples.

// RUN: rm -rf %t && mkdir -p %t
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/attention.mlir | xtile-translate --mlir-to-ptx -o %t/attention.ptx
// RUN: %ptxas -arch=sm_90 %t/attention.ptx -o %t/attention.cubin
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/decoder_layer.mlir | xtile-translate --mlir-to-ptx -o %t/decoder_layer.ptx
// RUN: %ptxas -arch=sm_90 %t/decoder_layer.ptx -o %t/decoder_layer.cubin
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/gelu_mlp.mlir | xtile-translate --mlir-to-ptx -o %t/gelu_mlp.ptx
// RUN: %ptxas -arch=sm_90 %t/gelu_mlp.ptx -o %t/gelu_mlp.cubin
// Kernels over a dynamic size: it is a .u64 parameter after the buffers.
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/test/Integration/Inputs/dynamic-rows.mlir | xtile-translate --mlir-to-ptx -o %t/dynamic_rows.ptx
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t/dynamic_rows.ptx
// RUN: %ptxas -arch=sm_90 %t/dynamic_rows.ptx -o %t/dynamic_rows.cubin
// DYNAMIC: .entry gelu_mlp_{{.*}}(
// DYNAMIC: .param .u64 .ptr .global .align 1 gelu_mlp_{{.*}}_param_3,
// DYNAMIC-NEXT: .param .u64 gelu_mlp_{{.*}}_param_4
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/layernorm.mlir | xtile-translate --mlir-to-ptx -o %t/layernorm.ptx
// RUN: %ptxas -arch=sm_90 %t/layernorm.ptx -o %t/layernorm.cubin
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-ptx -o %t/rmsnorm.ptx
// RUN: %ptxas -arch=sm_90 %t/rmsnorm.ptx -o %t/rmsnorm.cubin
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/softmax.mlir | xtile-translate --mlir-to-ptx -o %t/softmax.ptx
// RUN: %ptxas -arch=sm_90 %t/softmax.ptx -o %t/softmax.cubin
// RUN: xtile-opt --lower-to-kernel=target=sm_80 %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-ptx -o %t/rmsnorm_sm80.ptx
// RUN: %ptxas -arch=sm_80 %t/rmsnorm_sm80.ptx -o %t/rmsnorm_sm80.cubin

// The Kernel IR ops the examples do not use (cp.async with zero fill,
// narrow shuffles, atomics, dynamic shared memory, f16 math):
// RUN: xtile-translate --mlir-to-ptx %S/Inputs/kernel-ops.mlir -o %t/kernel-ops.ptx
// RUN: %ptxas -arch=sm_90 %t/kernel-ops.ptx -o %t/kernel-ops.cubin
// RUN: xtile-translate --mlir-to-ptx --ptx-chip=sm_80 %S/Inputs/kernel-ops.mlir -o %t/kernel-ops-sm80.ptx
// RUN: %ptxas -arch=sm_80 %t/kernel-ops-sm80.ptx -o %t/kernel-ops-sm80.cubin

// The edge shapes of test/Target/Inputs (ragged, size-1, transposed, long,
// split, 16-bit, integer, 64-bit offsets):
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/edge-shapes.mlir | xtile-translate --mlir-to-ptx -o %t/edge.ptx
// RUN: %ptxas -arch=sm_90 %t/edge.ptx -o %t/edge.cubin
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/huge.mlir | xtile-translate --mlir-to-ptx -o %t/huge.ptx
// RUN: %ptxas -arch=sm_90 %t/huge.ptx -o %t/huge.cubin

// No spills in the examples' kernels:
// RUN: for f in attention decoder_layer gelu_mlp layernorm rmsnorm softmax; do %ptxas -arch=sm_90 -v %t/$f.ptx -o %t/$f.cubin 2>> %t/ptxas-v.txt || exit 1; done
// RUN: FileCheck %s --check-prefix=SPILLS < %t/ptxas-v.txt
// SPILLS:     Compiling entry function
// SPILLS-NOT: {{[1-9][0-9]*}} bytes spill
