// RUN: xtile-opt %s --lower-to-loop | FileCheck %s
// RUN: xtile-opt %s --lower-to-loop --xloop-report | FileCheck %s --check-prefix=REPORT

// Three identical layers, tanh(h @ W + b), each fused into one kernel
// (matmul with its bias and activation epilogue): kernel identity makes
// them one kernel launched three times.

// CHECK:           xloop.kernel @[[K:[a-z_0-9]+]](
// CHECK-SAME:        attributes {xloop.identity = "0x{{[0-9a-f]+}}"}
// CHECK-NOT:       xloop.kernel
// CHECK-LABEL:     func.func @three_layers(
// CHECK:             %[[H1:.*]] = xloop.launch @[[K]](%arg0, %arg1, %arg2)
// CHECK-NEXT:        %[[H2:.*]] = xloop.launch @[[K]](%[[H1]], %arg3, %arg4)
// CHECK-NEXT:        %[[H3:.*]] = xloop.launch @[[K]](%[[H2]], %arg5, %arg6)
// CHECK-NEXT:        return %[[H3]]

// REPORT: kernel @[[K:.*]] identity 0x{{[0-9a-f]+}} reads 328704 B writes 65536 B
// REPORT-NOT: kernel @
// REPORT: func @three_layers: 3 launches, 1182720 B moved, ideal 920576 B (1.28x)
func.func @three_layers(%x: tensor<64x256xf32>,
    %w1: tensor<256x256xf32>, %b1: tensor<256xf32>,
    %w2: tensor<256x256xf32>, %b2: tensor<256xf32>,
    %w3: tensor<256x256xf32>, %b3: tensor<256xf32>) -> tensor<64x256xf32> {
  %m1 = xtensor.matmul %x, %w1 : tensor<64x256xf32>, tensor<256x256xf32> -> tensor<64x256xf32>
  %bb1 = xtensor.broadcast %b1 : tensor<256xf32> -> tensor<64x256xf32>
  %s1 = xtensor.add %m1, %bb1 : tensor<64x256xf32>
  %h1 = xtensor.tanh %s1 : tensor<64x256xf32>
  %m2 = xtensor.matmul %h1, %w2 : tensor<64x256xf32>, tensor<256x256xf32> -> tensor<64x256xf32>
  %bb2 = xtensor.broadcast %b2 : tensor<256xf32> -> tensor<64x256xf32>
  // The bias written on the other side: normalization makes it the same.
  %s2 = xtensor.add %bb2, %m2 : tensor<64x256xf32>
  %h2 = xtensor.tanh %s2 : tensor<64x256xf32>
  %m3 = xtensor.matmul %h2, %w3 : tensor<64x256xf32>, tensor<256x256xf32> -> tensor<64x256xf32>
  %bb3 = xtensor.broadcast %b3 : tensor<256xf32> -> tensor<64x256xf32>
  %s3 = xtensor.add %m3, %bb3 : tensor<64x256xf32>
  %h3 = xtensor.tanh %s3 : tensor<64x256xf32>
  return %h3 : tensor<64x256xf32>
}

// The intermediate activations (64x256 f32, written and read once each
// between layers) are the 1.28x: 2 x 2 x 65536 B above the ideal.
