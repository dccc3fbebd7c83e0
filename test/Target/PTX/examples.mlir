// The PTX of the matmul examples: cp.async stages, FMAs, barriers.
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/gelu_mlp.mlir | xtile-translate --mlir-to-ptx | FileCheck %s --check-prefix=MLP
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/attention.mlir | xtile-translate --mlir-to-ptx | FileCheck %s --check-prefix=ATTENTION
// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/decoder_layer.mlir | xtile-translate --mlir-to-ptx | FileCheck %s --check-prefix=DECODER

// MLP-DAG: .visible .entry gelu_mlp_mul_2(
// MLP-DAG: .visible .entry gelu_mlp_add_6(
// MLP-DAG: cp.async.cg.shared.global
// MLP-DAG: cp.async.wait_group {{[[:space:]]*}}2;
// MLP-DAG: fma.rn.f32
// MLP-DAG: bar.sync 0;

// ATTENTION: .visible .entry attention_matmul_2(
// ATTENTION-DAG: bar.sync
// ATTENTION-DAG: ex2.approx.f32
// ATTENTION-DAG: fma.rn.f32
// ATTENTION-NOT: .visible .entry

// DECODER-COUNT-6: .visible .entry
