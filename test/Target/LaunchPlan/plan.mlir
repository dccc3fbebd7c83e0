// RUN: xtile-translate --mlir-to-launch-plan %s | FileCheck %s

// A program's plan: its buffers (arguments, then temporaries in the order
// they are made) and its steps in program order. Launches name kernels as
// the PTX does; the arguments are buffer numbers.
xkernel.func @scale(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>) attributes {max_threads = 128 : i64} {
  xkernel.return
}
xkernel.func @"sum.rows"(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>) attributes {max_threads = 256 : i64} {
  xkernel.return
}
xkernel.program @host(%x: memref<4x8xf32>, %h: memref<3xbf16>) -> (%y: memref<4x8xf32>, %z: memref<4x8xf32>, %w: memref<3xbf16>) {
  %t = xkernel.alloc : memref<4x8xf32>
  %e = xkernel.alloc : memref<0x5xf32>
  xkernel.launch @scale(%x, %t) grid [4, 1, 1] block [128, 1, 1] shared 0 : memref<4x8xf32>, memref<4x8xf32>
  xkernel.launch @"sum.rows"(%t, %y) grid [2, 3, 1] block [256, 1, 1] shared 65536 : memref<4x8xf32>, memref<4x8xf32>
  xkernel.copy %y to %z : memref<4x8xf32>
  xkernel.copy %h to %w : memref<3xbf16>
}
// A program over a dynamic size T: the plan lists the sizes; a buffer's
// and a copy's bytes are multiplied by the sizes they list, a launch passes
// its sizes after its buffers, and its grid map is an expression of them.
xkernel.func @rows(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 128 : i64} {
  xkernel.return
}
xkernel.program @dynamic[%T = 1 to 4096](%x: memref<?x8xf32> [%T]) -> (%y: memref<?x8xf32> [%T]) attributes {size_names = ["T"]} {
  %t = xkernel.alloc(%T) : memref<?x8xf32>
  xkernel.launch @rows(%x, %t) sizes(%T) grid [128, 1, 1] map affine_map<()[s0] -> ((s0 ceildiv 64) * 2)> block [128, 1, 1] shared 0 : memref<?x8xf32>, memref<?x8xf32>
  xkernel.copy %t to %y : memref<?x8xf32>
}
xkernel.program @none() -> (%y: memref<4x8xf32>) {
  xkernel.launch @scale(%y, %y) grid [1, 1, 1] block [128, 1, 1] shared 0 : memref<4x8xf32>, memref<4x8xf32>
}

// CHECK:      {
// CHECK-NEXT:   "programs": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "input",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 6,
// CHECK-NEXT:           "element": "bf16",
// CHECK-NEXT:           "role": "input",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             3
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "output",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "output",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 6,
// CHECK-NEXT:           "element": "bf16",
// CHECK-NEXT:           "role": "output",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             3
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "temporary",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 0,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "temporary",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             0,
// CHECK-NEXT:             5
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "inputs": 2,
// CHECK-NEXT:       "name": "host",
// CHECK-NEXT:       "sizes": [],
// CHECK-NEXT:       "steps": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "args": [
// CHECK-NEXT:             0,
// CHECK-NEXT:             5
// CHECK-NEXT:           ],
// CHECK-NEXT:           "block": [
// CHECK-NEXT:             128,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "grid": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "launch": "scale",
// CHECK-NEXT:           "shared": 0,
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "args": [
// CHECK-NEXT:             5,
// CHECK-NEXT:             2
// CHECK-NEXT:           ],
// CHECK-NEXT:           "block": [
// CHECK-NEXT:             256,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "grid": [
// CHECK-NEXT:             2,
// CHECK-NEXT:             3,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "launch": "sum.rows",
// CHECK-NEXT:           "shared": 65536,
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "copy": {
// CHECK-NEXT:             "from": 2,
// CHECK-NEXT:             "to": 3
// CHECK-NEXT:           },
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 6,
// CHECK-NEXT:           "copy": {
// CHECK-NEXT:             "from": 1,
// CHECK-NEXT:             "to": 4
// CHECK-NEXT:           },
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         }
// CHECK-NEXT:       ]
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 32,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "input",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             -1,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": [
// CHECK-NEXT:             0
// CHECK-NEXT:           ]
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 32,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "output",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             -1,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": [
// CHECK-NEXT:             0
// CHECK-NEXT:           ]
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 32,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "temporary",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             -1,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": [
// CHECK-NEXT:             0
// CHECK-NEXT:           ]
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "inputs": 1,
// CHECK-NEXT:       "name": "dynamic",
// CHECK-NEXT:       "sizes": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "max": 4096,
// CHECK-NEXT:           "min": 1,
// CHECK-NEXT:           "name": "T"
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "steps": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "args": [
// CHECK-NEXT:             0,
// CHECK-NEXT:             2
// CHECK-NEXT:           ],
// CHECK-NEXT:           "block": [
// CHECK-NEXT:             128,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "grid": [
// CHECK-NEXT:             128,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "grid_map": [
// CHECK-NEXT:             [
// CHECK-NEXT:               "mul",
// CHECK-NEXT:               [
// CHECK-NEXT:                 "ceildiv",
// CHECK-NEXT:                 {
// CHECK-NEXT:                   "size": 0
// CHECK-NEXT:                 },
// CHECK-NEXT:                 64
// CHECK-NEXT:               ],
// CHECK-NEXT:               2
// CHECK-NEXT:             ]
// CHECK-NEXT:           ],
// CHECK-NEXT:           "launch": "rows",
// CHECK-NEXT:           "shared": 0,
// CHECK-NEXT:           "sizes": [
// CHECK-NEXT:             0
// CHECK-NEXT:           ]
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 32,
// CHECK-NEXT:           "copy": {
// CHECK-NEXT:             "from": 2,
// CHECK-NEXT:             "to": 1
// CHECK-NEXT:           },
// CHECK-NEXT:           "sizes": [
// CHECK-NEXT:             0
// CHECK-NEXT:           ]
// CHECK-NEXT:         }
// CHECK-NEXT:       ]
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "buffers": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "bytes": 128,
// CHECK-NEXT:           "element": "f32",
// CHECK-NEXT:           "role": "output",
// CHECK-NEXT:           "shape": [
// CHECK-NEXT:             4,
// CHECK-NEXT:             8
// CHECK-NEXT:           ],
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "inputs": 0,
// CHECK-NEXT:       "name": "none",
// CHECK-NEXT:       "sizes": [],
// CHECK-NEXT:       "steps": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "args": [
// CHECK-NEXT:             0,
// CHECK-NEXT:             0
// CHECK-NEXT:           ],
// CHECK-NEXT:           "block": [
// CHECK-NEXT:             128,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "grid": [
// CHECK-NEXT:             1,
// CHECK-NEXT:             1,
// CHECK-NEXT:             1
// CHECK-NEXT:           ],
// CHECK-NEXT:           "launch": "scale",
// CHECK-NEXT:           "shared": 0,
// CHECK-NEXT:           "sizes": []
// CHECK-NEXT:         }
// CHECK-NEXT:       ]
// CHECK-NEXT:     }
// CHECK-NEXT:   ]
// CHECK-NEXT: }
