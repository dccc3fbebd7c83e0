// RUN: xtile-opt %S/Inputs/argsort-512.mlir --xtensor-decompose --xtensor-normalize --convert-xtensor-to-xloop --xloop-fuse | FileCheck %s

// A merge pass of a sort is a binary search whose bounds the next step and
// the final choice both read, its values gathered through the previous
// pass's positions. Fusion's first sweep lets each pass's last
// elementwise op take in the producers only it reads, at its own loop
// indices, before the cost rule runs: one kernel a pass, which reads the
// previous pass's int32 positions and the row and writes its own. (The
// cost rule alone cuts the first pass here into three kernels, the search
// bounds in memory between them.)
// CHECK-LABEL: func.func @argsort_512(
// CHECK-NEXT:    %[[R0:.*]] = xloop.launch @argsort_512_reduce(%arg0)
// CHECK-NEXT:    %[[R1:.*]] = xloop.launch @argsort_512_reduce_{{[0-9]+}}(%[[R0]])
// CHECK-NEXT:    %[[P1:.*]] = xloop.launch @argsort_512_gather_{{[0-9]+}}(%arg0, %[[R1]]) : {{.*}} -> tensor<1x512xi32>
// CHECK-NEXT:    %[[P2:.*]] = xloop.launch @argsort_512_gather_{{[0-9]+}}(%[[P1]], %arg0) : {{.*}} -> tensor<1x512xi32>
// CHECK-NEXT:    %[[P3:.*]] = xloop.launch @argsort_512_gather_{{[0-9]+}}(%[[P2]], %arg0) : {{.*}} -> tensor<1x512xi32>
// CHECK-NEXT:    %[[P4:.*]] = xloop.launch @argsort_512_cast_{{[0-9]+}}(%[[P3]], %arg0) : {{.*}} -> tensor<1x512xi64>
// CHECK-NEXT:    return %[[P4]]
