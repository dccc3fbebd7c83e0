#!/usr/bin/env python3
"""One Hugging Face Llama decoder layer, forward plus backward, as
torch.compile(backend="xtile") compiles it for training (AOTAutograd's
forward and backward graphs, min-cut partitioner), against TorchInductor on
the same layer:

- per graph: xtile's kernel launches and bytes moved (--xloop-report: every
  buffer a kernel touches counted once, in full) against the ideal (each
  input read once, each output written once);
- TorchInductor's kernels on the same graphs, counted in its generated code
  (TORCH_LOGS=output_code's source): fused kernels it generates and the
  extern matmul calls. Without a GPU this is Inductor's CPU code (C++
  kernels, not Triton), the closest count we can make here;
- the reductions down the columns of the graphs (weight and bias
  gradients: sums over the tokens), each as the cost model prices it on
  sm_90 with its chosen schedule (a column schedule, split over ways where
  few blocks of features cover a long fold) and with the best schedule of
  one program per output (what every such kernel ran as before column
  schedules), against its floor (bytes over bandwidth);
- the memory the forward saves for the backward: the tensors AOTAutograd's
  forward returns beyond the layer's output, against what eager autograd
  saves (saved_tensors_hooks, each storage once).

    build/venv/bin/python bench/training.py [--hidden 4096 --inter 11008
        --heads 32 --kv-heads 8 --tokens 2048] [--dtype bfloat16]
    build/venv/bin/python bench/training.py --loss [--vocab 32000]
    build/venv/bin/python bench/training.py --embedding [--vocab 32000]

--loss measures the language-modelling loss instead of the layer:
cross-entropy over [tokens, vocab] logits upcast to f32, as Hugging
Face's loss does (the forward's log-softmax and loss, the backward's
gradient of the logits). --embedding measures the token embedding: its
forward gather and its backward, the table's gradient (a scatter-add of
the tokens' gradients into a zero table).

The graphs are run eagerly (PyTorch's own kernels, under the CPU) to reach
the backward: xtile's kernels are counted from their IR, not run, so the
layer can be at real widths. This is a benchmark: it prints numbers and
never fails on them.
"""
import argparse
import copy
import json
import re
import subprocess
import sys

import torch


def layer(opts):
    if opts.loss:
        return loss(opts)
    if opts.embedding:
        return embedding(opts)
    import transformers as T
    cfg = T.LlamaConfig(hidden_size=opts.hidden, intermediate_size=opts.inter,
                        num_attention_heads=opts.heads, num_key_value_heads=opts.kv_heads,
                        num_hidden_layers=1, vocab_size=128, max_position_embeddings=opts.tokens,
                        attn_implementation="sdpa")
    torch.manual_seed(0)
    block = T.models.llama.modeling_llama.LlamaDecoderLayer(cfg, 0).to(opts.dtype)
    rotary = T.models.llama.modeling_llama.LlamaRotaryEmbedding(cfg)

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.block, self.rotary = block, rotary

        def forward(self, x):
            positions = torch.arange(x.shape[1]).unsqueeze(0)
            out = self.block(x, position_embeddings=self.rotary(x, positions))
            return out[0] if isinstance(out, tuple) else out
    x = torch.randn(1, opts.tokens, opts.hidden, dtype=opts.dtype, requires_grad=True)
    return Layer().train(), x


def loss(opts):
    torch.manual_seed(0)
    target = torch.randint(0, opts.vocab, (opts.tokens,))

    class Loss(torch.nn.Module):
        def forward(self, logits):
            return torch.nn.functional.cross_entropy(logits.float(), target)
    x = torch.randn(opts.tokens, opts.vocab, dtype=opts.dtype, requires_grad=True)
    return Loss().train(), x


def embedding(opts):
    torch.manual_seed(0)
    table = torch.nn.Embedding(opts.vocab, opts.hidden).to(opts.dtype)
    ids = torch.randint(0, opts.vocab, (1, opts.tokens))
    return table.train(), ids


def graph_bytes(values):
    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def xtile_graphs(opts):
    """(kind, launches, moved, ideal) per graph, and the bytes the forward
    saves for the backward."""
    from functorch.compile import min_cut_rematerialization_partition
    from torch._functorch.aot_autograd import aot_module_simplified
    from xtile import importer
    from xtile.backend import _attention_as_math
    from xtile.cross_entropy import one_pass_cross_entropy
    from xtile.partition import Partitioned, aten_program
    from xtile.runtime import _tool
    rows, saved = [], []

    def report(imported):
        """A part's launches, bytes moved and ideal, from its Loop IR; its
        column reductions' estimates go to `columns`."""
        out = subprocess.run([_tool("xtile-opt"), "--lower-to-loop", "--xloop-report",
                              "-o", "/dev/null"], input=imported[0], capture_output=True,
                             text=True, check=True).stdout
        m = re.search(r": (\d+) launch(?:es)?, (\d+) B moved, ideal (\d+) B", out)
        schedules = json.loads(subprocess.run(
            [_tool("xtile-opt"), "--lower-to-tile=target=sm_90 schedule-report=-", "-o",
             "/dev/null"], input=imported[0], capture_output=True, text=True,
            check=True).stdout)
        for k in schedules["kernels"]:
            if k["facts"].get("column_kernel") and not k["facts"].get("contiguous", True):
                rowwise = min(c["micros"] for c in k["candidates"]
                              if not c["name"].startswith("column"))
                columns.append((current[0], k["name"], k["micros"], rowwise,
                                k["facts"]["bytes"]))
        return int(m[1]), int(m[2]), int(m[3])
    columns, current = [], [""]

    def counting(kind):
        def compile_graph(gm, inputs):
            # As the backend partitions it (strict: nothing through PyTorch),
            # each part reported instead of compiled.
            current[0] = kind
            parts = Partitioned(aten_program(copy.deepcopy(gm)), kind, None, report,
                                strict=True).parts
            rows.append((kind,) + tuple(sum(p[i] for p in parts) for i in range(3)))

            def run(args):
                out = gm(*args)
                if kind == "forward":
                    # What it returns beyond the layer's output is saved
                    # (the parameters and the input it passes through, too,
                    # which are held anyway: not counted).
                    held = {a.untyped_storage().data_ptr() for a in args
                            if isinstance(a, torch.Tensor)}
                    saved.append(graph_bytes(
                        o for o in out[1:] if isinstance(o, torch.Tensor)
                        and o.untyped_storage().data_ptr() not in held))
                return out
            run._boxed_call = True
            return run
        return compile_graph

    def backend(gm, example_inputs):
        # As xtile's backend rewrites a training graph.
        _attention_as_math(gm)
        one_pass_cross_entropy(gm)
        return aot_module_simplified(gm, example_inputs, fw_compiler=counting("forward"),
                                     bw_compiler=counting("backward"),
                                     partition_fn=min_cut_rematerialization_partition,
                                     decompositions=dict(importer.decomposition_table()))
    model, x = layer(opts)
    torch.compile(model, backend=backend)(x).float().sum().backward()
    return rows, saved[0] if saved else 0, columns


def inductor_kernels(opts):
    """Kernels in TorchInductor's generated code for the same layer's
    forward and backward: (fused kernels, extern calls)."""
    from torch._inductor import config
    config.debug = False
    sources = []
    from torch._inductor.codecache import PyCodeCache
    load = PyCodeCache.load_by_key_path

    def recording(*args, **kwargs):
        module = load(*args, **kwargs)
        path = getattr(module, "__file__", None)
        if path:
            with open(path) as f:
                sources.append(f.read())
        return module
    PyCodeCache.load_by_key_path = recording
    try:
        torch._dynamo.reset()
        model, x = layer(opts)
        torch.compile(model, backend="inductor")(x).float().sum().backward()
    finally:
        PyCodeCache.load_by_key_path = load
    fused = extern = 0
    for code in sources:
        calls = code.split("def call(")[-1] if "def call(" in code else ""
        fused += len(re.findall(r"\b(?:cpp_fused_\w+|triton_\w+)\((?!.*def)", calls))
        extern += len(re.findall(r"extern_kernels\.\w+\(", calls))
    return fused, extern, len(sources)


def eager_saved(opts):
    """Bytes eager autograd saves for the backward (each storage once)."""
    model, x = layer(opts)
    seen = {}

    def pack(t):
        if isinstance(t, torch.Tensor) and t.untyped_storage().data_ptr() not in seen:
            seen[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = model(x)
    y.float().sum().backward()
    return sum(n for ptr, n in seen.items() if ptr not in params and
               ptr != x.untyped_storage().data_ptr())


def mib(n):
    return f"{n / 2**20:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--inter", type=int, default=11008)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--kv-heads", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=2048)
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--no-inductor", action="store_true")
    parser.add_argument("--loss", action="store_true",
                        help="the cross-entropy loss over --vocab logits instead of the layer")
    parser.add_argument("--embedding", action="store_true",
                        help="the token embedding ([--vocab, --hidden]) instead of the layer")
    parser.add_argument("--vocab", type=int, default=32000)
    opts = parser.parse_args()
    opts.dtype = getattr(torch, opts.dtype)
    dtype = str(opts.dtype).split('.')[-1]
    if opts.loss:
        print(f"cross-entropy over [{opts.tokens}, {opts.vocab}] {dtype} logits, in f32")
    elif opts.embedding:
        print(f"token embedding [{opts.vocab}, {opts.hidden}] {dtype}, {opts.tokens} tokens")
    else:
        print(f"Llama decoder layer, hidden {opts.hidden}, MLP {opts.inter}, {opts.heads} heads "
              f"({opts.kv_heads} KV), {opts.tokens} tokens, {dtype}")
    rows, saved, columns = xtile_graphs(opts)
    print(f"{'graph':<10}{'xtile kernels':>15}{'MiB moved':>12}{'ideal MiB':>12}{'x ideal':>9}")
    for kind, launches, moved, ideal in rows:
        print(f"{kind:<10}{launches:>15}{mib(moved):>12}{mib(ideal):>12}{moved / ideal:>9.2f}")
    total = [sum(r[i] for r in rows) for i in (1, 2, 3)]
    print(f"{'total':<10}{total[0]:>15}{mib(total[1]):>12}{mib(total[2]):>12}"
          f"{total[1] / total[2]:>9.2f}")
    if columns:
        print("column reductions (cost model, sm_90 at 3350 GB/s): schedule, estimate, "
              "one program per output, floor")
        for kind, name, micros, rowwise, nbytes in columns:
            print(f"  {kind:<9}{name:<24}{micros:>9.1f} us{rowwise:>10.1f} us"
                  f"{nbytes / 3350e3:>9.1f} us")
        print(f"  {'total':<33}{sum(c[2] for c in columns):>9.1f} us"
              f"{sum(c[3] for c in columns):>10.1f} us{sum(c[4] for c in columns) / 3350e3:>9.1f} us")
    eager = eager_saved(opts)
    print(f"saved for the backward: xtile (min-cut partitioner) {mib(saved)} MiB, "
          f"eager autograd {mib(eager)} MiB")
    if not opts.no_inductor:
        fused, extern, modules = inductor_kernels(opts)
        where = "CPU (C++)" if not torch.cuda.is_available() else "GPU (Triton)"
        print(f"TorchInductor, {where}: {fused} generated kernels + {extern} extern "
              f"calls (matmuls) over {modules} compiled module(s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
