#!/usr/bin/env python3
"""Launches of a compiled optimizer step, with and without horizontal fusion.

torch.compile(optimizer.step, backend="xtile") for AdamW and SGD with
momentum (foreach) over the parameters of a small Llama (random weights):
the graph Dynamo captures holds every parameter's update. Each parameter's
update is one elementwise kernel after producer-consumer fusion; horizontal
fusion (--xloop-fuse, on by default) merges the updates of parameters of
one shape into one kernel (up to 128 buffers each), and every parameter's
step count into one. Printed per optimizer: the parameters, their distinct
shapes, the launches with horizontal fusion and without
(`--lower-to-loop=horizontal=false`), and the bytes moved (the same
either way) against the ideal (each input read once, each result written
once), by xtile-opt's --xloop-report on the captured graphs. SGD's first
step returns the gradients as its momentum buffers, which the ideal counts
as written and no kernel writes: there the bytes moved are below it.

    PATH=$PWD/build/bin:$PATH PYTHONPATH=python build/venv/bin/python \\
        bench/optimizer_step.py [--layers 4] [--hidden 512]
"""
import argparse

import torch

from optimizer_in_place import report


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--hidden", type=int, default=512)
    args = p.parse_args()
    import transformers as hf

    import xtile  # noqa: F401  (registers the backend)
    from xtile.backend import xtile_backend
    torch.manual_seed(0)
    h = args.hidden
    cfg = hf.LlamaConfig(vocab_size=4096, hidden_size=h, intermediate_size=h * 11 // 4,
                         num_hidden_layers=args.layers, num_attention_heads=h // 64,
                         num_key_value_heads=h // 128)
    model = hf.LlamaForCausalLM(cfg)
    ids = torch.randint(0, 4096, (1, 32))
    model(input_ids=ids, labels=ids).loss.backward()
    params = list(model.parameters())
    shapes = {tuple(q.shape) for q in params}
    print(f"Llama, {args.layers} layers of width {h}: {len(params)} parameters "
          f"({sum(q.numel() for q in params) / 1e6:.1f} M elements, f32) of "
          f"{len(shapes)} shapes")
    for name, make in [("AdamW", lambda ps: torch.optim.AdamW(ps, lr=1e-3, foreach=True)),
                       ("SGD with momentum",
                        lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, foreach=True))]:
        opt = make(params)
        graphs = []

        def recording(gm, example_inputs):
            call = xtile_backend(gm, example_inputs)
            if call.compiled is not None:
                graphs.append(call.compiled.mlir)
            return call
        torch._dynamo.reset()
        step = torch.compile(opt.step, backend=recording)
        for _ in range(2):  # the first step creates the state
            step()
        on = [report(m, "horizontal=true") for m in graphs]
        off = [report(m, "horizontal=false") for m in graphs]
        moved, ideal = sum(r[1] for r in on), sum(r[2] for r in on)
        print(f"  {name}: {len(graphs)} graph(s); {sum(r[0] for r in on)} launches with "
              f"horizontal fusion, {sum(r[0] for r in off)} without; "
              f"{moved / 2**20:.1f} MiB moved ({sum(r[1] for r in off) / 2**20:.1f} "
              f"without), ideal {ideal / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
