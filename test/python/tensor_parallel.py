# Tensor parallelism through torch.compile(backend="xtile"): a Llama
# decoder layer sharded Megatron-style (column-parallel q/k/v and gate/up,
# row-parallel o and down, an all_reduce after each) on N processes
# started here (gloo on the loopback address). Each rank compiles its
# shard; the collectives run through torch.distributed between the
# compiled parts. Every rank's result is compared with the unsharded
# eager layer, and each rank's kernels with the single-process layer's.
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
    results.put((rank, error, eager_error, launches, moved, parts, reports))
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
    for rank, error, eager_error, launches, moved, parts, reports in got:
        print(f"TP={world} rank {rank}: max error {error:.2e} against the unsharded eager "
              f"layer ({'ok' if error <= tol else 'FAILED'}; the eager shard's "
              f"{eager_error:.2e}); {launches} launches in {parts} compiled parts, "
              f"{moved} B moved")
    print(f"TP={world} report (rank 0):", "\n".join(got[0][-1]))


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
