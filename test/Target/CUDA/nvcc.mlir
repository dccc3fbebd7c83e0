// REQUIRES: nvcc
// Every example and every edge shape compiles with nvcc for sm_90 with
// warnings as errors, and ptxas reports no register spills; so does a
// kernel of 151 buffers (its launch converts each argument on its own).
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in rmsnorm softmax layernorm gelu_mlp attention decoder_layer; do \
// RUN:   xtile-opt --lower-to-kernel %xtile_src_root/examples/$f.mlir | xtile-translate --mlir-to-cuda -o %t/$f.cu && \
// RUN:   %nvcc -arch=sm_90 --Werror all-warnings -Xptxas -v -c %t/$f.cu -o %t/$f.o 2>> %t/ptxas.txt || exit 1; \
// RUN: done
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/edge-shapes.mlir | xtile-translate --mlir-to-cuda -o %t/edge.cu
// RUN: %nvcc -arch=sm_90 --Werror all-warnings -Xptxas -v -c %t/edge.cu -o %t/edge.o 2>> %t/ptxas.txt
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/huge.mlir | xtile-translate --mlir-to-cuda -o %t/huge.cu
// RUN: %nvcc -arch=sm_90 --Werror all-warnings -Xptxas -v -c %t/huge.cu -o %t/huge.o 2>> %t/ptxas.txt
// RUN: xtile-opt --lower-to-kernel %S/../Inputs/many-buffers.mlir | xtile-translate --mlir-to-cuda -o %t/many.cu
// RUN: %nvcc -arch=sm_90 --Werror all-warnings -Xptxas -v -c %t/many.cu -o %t/many.o 2>> %t/ptxas.txt
// RUN: FileCheck %s < %t/ptxas.txt

// CHECK:     Compiling entry function 'rmsnorm_mul_2' for 'sm_90'
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK:     Compiling entry function 'huge_mul_{{[0-9]+}}' for 'sm_90'
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK:     Compiling entry function 'many_add_{{[0-9]+}}' for 'sm_90'
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
