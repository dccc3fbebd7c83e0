// The bundled examples through --lower-to-loop: the norms and softmax are
// one kernel each, with every graph input read once and the output written
// once (the report's bytes equal the ideal); the MLP is two kernels (each
// matmul with its epilogue) and attention three (see docs/LoopIR.md).
//
// RUN: xtile-opt %xtile_src_root/examples/rmsnorm.mlir --lower-to-loop | FileCheck %s --check-prefix=RMS
// RUN: xtile-opt %xtile_src_root/examples/rmsnorm.mlir --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=RMS-REPORT
// RUN: xtile-opt %xtile_src_root/examples/softmax.mlir --lower-to-loop | FileCheck %s --check-prefix=SOFTMAX
// RUN: xtile-opt %xtile_src_root/examples/softmax.mlir --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=SOFTMAX-REPORT
// RUN: xtile-opt %xtile_src_root/examples/layernorm.mlir --lower-to-loop | FileCheck %s --check-prefix=LN
// RUN: xtile-opt %xtile_src_root/examples/layernorm.mlir --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=LN-REPORT
// RUN: xtile-opt %xtile_src_root/examples/gelu_mlp.mlir --lower-to-loop | FileCheck %s --check-prefix=MLP
// RUN: xtile-opt %xtile_src_root/examples/attention.mlir --lower-to-loop | FileCheck %s --check-prefix=ATTN
// RUN: xtile-opt %xtile_src_root/examples/attention.mlir --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=ATTN-REPORT
// RUN: xtile-opt %xtile_src_root/examples/decoder_layer.mlir --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=DECODER

// RMSNorm: the row's sum of squares is a fold nested in the row loop, then
// the row's elementwise scaling.
// RMS:          xloop.kernel @[[K:.*]](%[[X:.*]]: memref<4096x4096xf32>, %[[W:.*]]: memref<4096xf32>) -> (%[[Y:.*]]: memref<4096x4096xf32>)
// RMS:            xloop.parallel %[[I:.*]] = 0 to 4096 {
// RMS-NEXT:         %[[SS:.*]] = xloop.fold %[[K1:.*]] = 0 to 4096 combine add init(%{{.*}}) : f32 {
// RMS-NEXT:           %[[V:.*]] = xloop.load %[[X]][%[[I]], %[[K1]]]
// RMS-NEXT:           %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : f32
// RMS-NEXT:           xloop.yield %[[SQ]] : f32
// RMS-NEXT:         }
// RMS-NEXT:         %[[MEAN:.*]] = arith.divf %[[SS]], %{{.*}} : f32
// RMS-NEXT:         %[[E:.*]] = arith.addf %[[MEAN]], %{{.*}} : f32
// RMS-NEXT:         %[[R:.*]] = math.rsqrt %[[E]] : f32
// RMS-NEXT:         xloop.parallel %[[J:.*]] = 0 to 4096 {
// RMS-NEXT:           %[[XV:.*]] = xloop.load %[[X]][%[[I]], %[[J]]]
// RMS-NEXT:           %[[XR:.*]] = arith.mulf %[[R]], %[[XV]] : f32
// RMS-NEXT:           %[[WV:.*]] = xloop.load %[[W]][%[[J]]]
// RMS-NEXT:           %[[O:.*]] = arith.mulf %[[XR]], %[[WV]] : f32
// RMS-NEXT:           xloop.store %[[O]], %[[Y]][%[[I]], %[[J]]]
// RMS-NOT:      xloop.kernel
// RMS:          xloop.launch @[[K]](%arg0, %arg1)
// RMS-REPORT:   func @rmsnorm: 1 launch, 134234112 B moved, ideal 134234112 B (1.00x)

// Softmax: the maximum and the sum of exponentials in one online fold
// (one pass), then the elementwise loop, in one program.
// SOFTMAX:      xloop.kernel
// SOFTMAX:        xloop.parallel %{{.*}} = 0 to 4096 {
// SOFTMAX-NEXT:     %[[M:.*]], %[[S:.*]] = xloop.online_fold %{{.*}} = 0 to 4096 : f32 {
// SOFTMAX:          xloop.parallel
// SOFTMAX:            arith.subf %{{.*}}, %[[M]]
// SOFTMAX:            math.exp
// SOFTMAX:            arith.divf %{{.*}}, %[[S]]
// SOFTMAX-NOT:  xloop.kernel
// SOFTMAX-REPORT: func @softmax: 1 launch, 134217728 B moved, ideal 134217728 B (1.00x)

// LayerNorm: mean and variance folds of the same row in one kernel.
// LN:           xloop.kernel
// LN:             xloop.parallel %{{.*}} = 0 to 4096 {
// LN-NEXT:          %[[SUM:.*]] = xloop.fold %{{.*}} combine add
// LN:               %[[MEAN:.*]] = arith.divf %[[SUM]]
// LN:               %[[VAR:.*]] = xloop.fold %{{.*}} combine add
// LN:                 arith.subf %{{.*}}, %[[MEAN]]
// LN:               xloop.parallel
// LN-NOT:       xloop.kernel
// LN-REPORT:    func @layernorm: 1 launch, 134250496 B moved, ideal 134250496 B (1.00x)

// Two matmuls, each with its epilogue (bias and GELU, then bias).
// MLP:          xloop.kernel
// MLP:            xloop.fold {{.*}} 0 to 1024 combine add
// MLP:            math.erf
// MLP:          xloop.kernel
// MLP:            xloop.fold {{.*}} 0 to 4096 combine add
// MLP-NOT:      math.erf
// MLP-NOT:      xloop.kernel
// MLP:          func.func
// MLP-COUNT-2:    xloop.launch
// MLP-NOT:        xloop.launch

// Attention: one online fold over the keys per output element, its scores
// the q @ k^T contraction, scaled; its weights v.
// ATTN:         xloop.kernel
// ATTN:           xloop.parallel %{{.*}} = 0 to 64 {
// ATTN:             xloop.parallel %{{.*}} = 0 to 64 {
// ATTN:               %{{.*}}, %[[S:.*]], %[[A:.*]] = xloop.online_fold %{{.*}} = 0 to 1024 : f32 weights 1 {
// ATTN:                 xloop.fold %{{.*}} = 0 to 64 combine add
// ATTN:               arith.divf %[[A]], %[[S]]
// ATTN-NOT:     xloop.kernel
// ATTN-REPORT:  func @attention: 1 launch, 67108864 B moved, ideal 67108864 B (1.00x)

// The decoder layer: 7 launches of 6 kernels (both RMSNorms are one kernel;
// Q, K and V projections one; attention one).
// DECODER-COUNT-6: kernel @
// DECODER-NOT:     kernel @
// DECODER:         func @decoder_layer: 7 launches, 100671488 B moved, ideal 55582720 B (1.81x)
