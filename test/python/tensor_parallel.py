# Tensor parallelism through torch.compile(backend="xtile"): a Llama
# decoder layer sharded Megatron-style (column-parallel q/k/v and gate/up,
# row-parallel o and down, an all_reduce after each) on N processes
# started here (gloo on the loopback address). Each rank compiles its
# shard; the collectives run through torch.distributed between the
# compiled parts. Every rank's result is compared with the unsharded
# eager layer, and each rank's kernels with the single-process layer's.
# The same layer sharded by torch.distributed.tensor.parallel's plans
# (DTensor) compiles to the same kernels.
#
#   tensor_parallel.py [--ranks 2 4] [--dtype float32]
import argparse
import os
import socket
import sys
import warnings

import torch
import torch.distributed as dist
import torch.distributed._functional_collectives as funcol
import torch.multiprocessing as mp
import torch.nn as nn

# Partitioning is what this tests: the suite runs strict (XTILE_STRICT=1).
os.environ.pop("XTILE_STRICT", None)

HIDDEN, HEADS, KV_HEADS, INTER, TOKENS = 64, 8, 4, 128, 12


def config():
    from transformers import LlamaConfig
    return LlamaConfig(hidden_size=HIDDEN, intermediate_size=INTER, num_attention_heads=HEADS,
                       num_key_value_heads=KV_HEADS, num_hidden_layers=1,
                       max_position_embeddings=64, vocab_size=128,
                       attn_implementation="sdpa")


class Layer(nn.Module):
    """A Llama decoder layer and its rotary table, as a function of the
    hidden states."""

    def __init__(self, layer, rotary):
        super().__init__()
        self.layer, self.rotary = layer, rotary

    def forward(self, x):
        positions = torch.arange(x.shape[1]).unsqueeze(0)
        out = self.layer(x, position_embeddings=self.rotary(x, positions))
        return out[0] if isinstance(out, tuple) else out


class RowParallel(nn.Module):
    """A row-parallel projection: this rank's columns of the weight, then
    the sum over the ranks (Megatron's all_reduce after o and down)."""

    def __init__(self, linear, rank, world, reduce=True):
        super().__init__()
        width = linear.in_features // world
        self.weight = nn.Parameter(linear.weight[:, rank * width:(rank + 1) * width].clone())
        self.reduce = reduce

    def forward(self, x):
        partial = nn.functional.linear(x, self.weight)
        if not self.reduce:   # the layer at 1/world width, on one process
            return partial
        return funcol.all_reduce(partial, "sum", dist.group.WORLD)


def column(linear, rank, world):
    """A column-parallel projection: this rank's rows of the weight."""
    width = linear.out_features // world
    shard = nn.Linear(linear.in_features, width, bias=False)
    shard.weight = nn.Parameter(linear.weight[rank * width:(rank + 1) * width].clone())
    return shard


def shard(layer, rank, world, reduce=True):
    """The layer's shard on `rank`: heads and the MLP's width split (without
    the all_reduces with reduce=False)."""
    import copy
    mine = copy.deepcopy(layer)
    attn, mlp = mine.self_attn, mine.mlp
    for name in ("q_proj", "k_proj", "v_proj"):
        setattr(attn, name, column(getattr(attn, name), rank, world))
    attn.o_proj = RowParallel(layer.self_attn.o_proj, rank, world, reduce)
    for name in ("gate_proj", "up_proj"):
        setattr(mlp, name, column(getattr(mlp, name), rank, world))
    mlp.down_proj = RowParallel(layer.mlp.down_proj, rank, world, reduce)
    return mine


def build(dtype):
    from transformers.models.llama.modeling_llama import (LlamaDecoderLayer,
                                                          LlamaRotaryEmbedding)
    torch.manual_seed(0)
    cfg = config()
    layer = LlamaDecoderLayer(cfg, 0).eval().to(dtype)
    for p in layer.parameters():   # weights away from 1, so that shards differ
        nn.init.normal_(p, std=0.1)
    return layer, LlamaRotaryEmbedding(cfg), torch.randn(1, TOKENS, HIDDEN, dtype=dtype)


class SequenceParallelMLP(nn.Module):
    """Megatron's sequence parallelism around an MLP: the tokens sharded
    over the ranks, an all_gather before the column-parallel up projection,
    a reduce_scatter after the row-parallel down projection."""

    def __init__(self, norm, up, down, rank, world):
        super().__init__()
        self.norm = norm
        self.up = column(up, rank, world)
        self.down = RowParallel(down, rank, world, reduce=False)

    def forward(self, x):
        h = funcol.all_gather_tensor(self.norm(x), 0, dist.group.WORLD)
        h = self.down(nn.functional.gelu(self.up(h)))
        return x + funcol.reduce_scatter_tensor(h, "sum", 0, dist.group.WORLD)


class AllToAll(nn.Module):
    """all_to_all_single between two compiled parts (expert parallelism's
    token exchange)."""

    def forward(self, x):
        y = funcol.all_to_all_single(torch.exp(x) * 2.0, None, None, dist.group.WORLD)
        return torch.softmax(y, dim=-1)


class Overlap(nn.Module):
    """An all_reduce whose result is read last: what does not depend on
    it runs before its wait."""

    def forward(self, x, y):
        a = funcol.all_reduce(x * 2.0, "sum", dist.group.WORLD)
        b = torch.lgamma(y + 2.0)    # no lowering: runs through PyTorch
        return a + b


def outer_order(compiled):
    """The ops of a partitioned graph in the order they run."""
    names = []
    for node in compiled.gm.graph.nodes:
        if node.op == "call_module":
            names.append("part")
        elif node.op == "call_function" and hasattr(node.target, "_schema"):
            names.append(node.target._schema.name.split("::")[-1])
    return " ".join(names)


def collectives(rank, world, results):
    """The other collectives through torch.compile, against their eager runs."""
    from xtile.backend import xtile_backend
    seen = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        seen.append(call.compiled)
        return call
    torch.manual_seed(1)
    norm = nn.RMSNorm(HIDDEN, eps=1e-6)
    up, down = nn.Linear(HIDDEN, INTER, bias=False), nn.Linear(INTER, HIDDEN, bias=False)
    x = torch.randn(TOKENS * world, HIDDEN)
    lines = []
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = x + down(nn.functional.gelu(up(norm(x))))
        mine = x[rank * TOKENS:(rank + 1) * TOKENS]
        sp = SequenceParallelMLP(norm, up, down, rank, world)
        got = torch.compile(sp, backend=recording)(mine)
        want = full[rank * TOKENS:(rank + 1) * TOKENS]
        error = (got - want).abs().max().item()
        lines.append(f"sequence parallel (all_gather, reduce_scatter): max error "
                     f"{error:.2e} ({'ok' if error <= 1e-5 else 'FAILED'}); "
                     f"{outer_order(seen[-1])}")
        a = torch.randn(world * 2, 16) + rank
        got = torch.compile(AllToAll(), backend=recording)(a)
        want = AllToAll()(a)
        lines.append(f"all_to_all_single: {'match ok' if torch.allclose(got, want, atol=1e-6) else 'match FAILED'}; "
                     f"{outer_order(seen[-1])}")
        u, v = torch.randn(4, 8), torch.rand(4, 8)
        got = torch.compile(Overlap(), backend=recording)(u, v)
        want = Overlap()(u, v)
        lines.append(f"overlap: {'match ok' if torch.allclose(got, want, atol=1e-5) else 'match FAILED'}; "
                     f"{outer_order(seen[-1])}")
    return lines


class NextToken(nn.Module):
    """A causal LM's logits for the last position (no cache)."""

    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, ids):
        return self.lm(input_ids=ids, use_cache=False).logits[:, -1]


def generation(rank, world, steps=8):
    """Greedy decoding from a tiny 2-layer Llama whose layers are sharded
    (the embedding and the head replicated), each step's forward through
    torch.compile(backend="xtile"), against the unsharded model's tokens."""
    import copy
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(0)
    cfg = LlamaConfig(hidden_size=HIDDEN, intermediate_size=INTER, num_attention_heads=HEADS,
                      num_key_value_heads=KV_HEADS, num_hidden_layers=2, vocab_size=128,
                      max_position_embeddings=64, attn_implementation="sdpa")
    lm = LlamaForCausalLM(cfg).eval()
    prompt = torch.randint(0, 128, (1, 5))
    sharded = copy.deepcopy(lm)
    sharded.model.layers = nn.ModuleList(shard(layer, rank, world)
                                         for layer in lm.model.layers)
    step = torch.compile(NextToken(sharded).eval(), backend="xtile")
    want, got = prompt, prompt
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(steps):
            want = torch.cat([want, lm(input_ids=want, use_cache=False).logits[:, -1:]
                              .argmax(-1)], dim=1)
            got = torch.cat([got, step(got).argmax(-1, keepdim=True)], dim=1)
    return (f"greedy decoding, {steps} tokens: "
            f"{'match ok' if torch.equal(got, want) else 'match FAILED'} "
            f"({got[0, prompt.shape[1]:].tolist()})")


def dtensor(rank, world):
    """The layer sharded by torch.distributed.tensor.parallel's plans
    (ColwiseParallel, RowwiseParallel on DTensor parameters), through
    torch.compile: AOTAutograd lowers the DTensors to plain tensors and
    functional collectives, which xtile compiles."""
    import copy
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor.parallel import (ColwiseParallel, RowwiseParallel,
                                                   parallelize_module)
    from xtile.backend import xtile_backend
    seen = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        seen.append(call.compiled)
        return call
    mesh = init_device_mesh("cpu", (world,))
    layer, rotary, x = build(torch.float32)
    sharded = copy.deepcopy(layer)
    plan = {f"self_attn.{p}_proj": ColwiseParallel() for p in "qkv"}
    plan.update({"self_attn.o_proj": RowwiseParallel(), "mlp.gate_proj": ColwiseParallel(),
                 "mlp.up_proj": ColwiseParallel(), "mlp.down_proj": RowwiseParallel()})
    parallelize_module(sharded, mesh, plan)
    with torch.no_grad():
        want = Layer(layer, rotary)(x)
        got = torch.compile(Layer(sharded, rotary).eval(), backend=recording)(x)
    error = (got - want).abs().max().item()
    compiled = seen[0]
    return (f"DTensor plans: max error {error:.2e} ({'ok' if error <= 1e-5 else 'FAILED'}); "
            f"{compiled.launches()} launches in {len(compiled.parts)} compiled parts, "
            f"{compiled.traffic()[0]} B moved; {compiled.report().splitlines()[0]}")


def parts_report(compiled_graphs):
    """Launches, bytes moved and compiled parts of the graphs torch.compile made."""
    launches = sum(g.launches() for g in compiled_graphs)
    moved = sum(g.traffic()[0] for g in compiled_graphs)
    parts = sum(len(getattr(g, "parts", [g])) for g in compiled_graphs)
    return launches, moved, parts


def worker(rank, world, port, dtype, results):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.set_num_threads(1)
    from xtile.backend import xtile_backend
    seen = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        seen.append(call.compiled)
        return call
    layer, rotary, x = build(dtype)
    with torch.no_grad():
        want = Layer(layer, rotary)(x)
        model = Layer(shard(layer, rank, world), rotary).eval()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = torch.compile(model, backend=recording)(x)
        eager = model(x)   # the shard run eagerly, collectives included
    warned = [str(w.message) for w in caught if "run through PyTorch" in str(w.message)]
    reports = [g.report() for g in seen if hasattr(g, "report")] + [
        f"{len(warned)} warning(s)"]
    error = (got.float() - want.float()).abs().max().item()
    eager_error = (eager.float() - want.float()).abs().max().item()
    launches, moved, parts = parts_report(seen)
    others = collectives(rank, world, results) + [dtensor(rank, world),
                                                  generation(rank, world)]
    results.put((rank, error, eager_error, launches, moved, parts, reports, others))
    dist.barrier()
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(world, dtype):
    ctx = mp.get_context("spawn")
    results = ctx.SimpleQueue()
    mp.start_processes(worker, args=(world, free_port(), dtype, results), nprocs=world,
                       join=True, start_method="spawn")
    got = sorted(results.get() for _ in range(world))
    tol = 1e-5 if dtype == torch.float32 else 2e-2
    for rank, error, eager_error, launches, moved, parts, reports, _ in got:
        print(f"TP={world} rank {rank}: max error {error:.2e} against the unsharded eager "
              f"layer ({'ok' if error <= tol else 'FAILED'}; the eager shard's "
              f"{eager_error:.2e}); {launches} launches in {parts} compiled parts, "
              f"{moved} B moved")
    print(f"TP={world} report (rank 0):", "\n".join(got[0][-2]))
    for rank, *_, others in got:
        for line in others:
            print(f"TP={world} rank {rank}: {line}")


def single(dtype):
    """The unsharded layer compiled in one process: its launches."""
    import xtile
    layer, rotary, x = build(dtype)
    with torch.no_grad():
        fast = xtile.compile(Layer(layer, rotary).eval(), (x,))
        ok = (fast(x).float() - Layer(layer, rotary)(x).float()).abs().max().item()
    print(f"TP=1: max error {ok:.2e}; {fast.launches()} launches, {fast.traffic()[0]} B moved")


def narrow(world, dtype):
    """Rank 0's shard without its all_reduces, compiled in one process: the
    single-GPU kernels at 1/world width."""
    import xtile
    layer, rotary, x = build(dtype)
    fast = xtile.compile(Layer(shard(layer, 0, world, reduce=False), rotary).eval(), (x,))
    print(f"1/{world} width, one process: {fast.launches()} launches, "
          f"{fast.traffic()[0]} B moved")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", type=int, nargs="*", default=[2])
    parser.add_argument("--dtype", default="float32")
    opts = parser.parse_args()
    dtype = getattr(torch, opts.dtype)
    single(dtype)
    for world in opts.ranks:
        narrow(world, dtype)
        run(world, dtype)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
