# Hugging Face model families, built from small configs with random weights
# (nothing is downloaded), each run as the model's own forward (its own
# mask and position-id code) through xtile.compile under the CPU emulation
# and compared with eager PyTorch.
#
#   hf_models.py [FAMILY ...] [--dtypes float32,bfloat16]
#
# Prints one line per family and dtype: "<family> <dtype>: import ok,
# attention fused (one kernel per layer), compile ok (N.N s), match ok (max
# error E)" or the stage that failed and why, then a closing count. f32 is compared with eager within torch's f32
# tolerances (rtol 1.3e-6, atol 1e-5, loosened 10x for the depth of a
# transformer); bf16 as PyTorch compares bf16 kernels: against the f32
# model on the same (bf16-representable) weights and inputs, xtile's error
# may be no larger than 2x eager bf16's own error plus a bf16 ulp.
import argparse
import re
import sys
import time
import warnings

import torch

import xtile

warnings.filterwarnings("ignore")


LAYERS = 2  # every family's config below
# transformers' experts implementation the MoE families run with
# (--experts chooses another).
EXPERTS = "batched_mm"
# The mixture-of-experts families.
MOE = ("mixtral", "qwen2_moe", "qwen3_moe", "olmoe", "deepseek_v3", "gpt_oss", "llama4")


def attention_kernels(text):
    """In the module's Loop IR: the launches of fused attention kernels
    (weighted online folds; layers alike launch one kernel) and the
    softmax maxima left unfused (kernels with a float max
    fold over more than 8 elements and an exp; an MoE router's topk has
    max folds and no exp, and its softmax over the top k or 8 experts
    folds at most 8)."""
    import subprocess
    from xtile import runtime
    loop = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop"],
                          input=text, capture_output=True, text=True,
                          check=True).stdout
    kernels = loop.split("xloop.kernel @")[1:]
    float_max = re.compile(r"= 0 to (\d+) combine max init\([^)]*\) : (f16|bf16|f32|f64) ")
    attention = [k.split("(")[0] for k in kernels if "weights 1" in k]
    return (sum(loop.count(f"xloop.launch @{name}(") for name in attention),
            sum(any(int(m.group(1)) > 8 for m in float_max.finditer(k)) and
                "math.exp" in k for k in kernels))


def families():
    import transformers as T
    tiny = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                num_attention_heads=4, vocab_size=128,
                max_position_embeddings=64)
    decoder = dict(tiny, num_key_value_heads=2)
    return {
        "llama": lambda: T.LlamaModel(T.LlamaConfig(**decoder)),
        "qwen2": lambda: T.Qwen2Model(T.Qwen2Config(**decoder)),
        "qwen3": lambda: T.Qwen3Model(T.Qwen3Config(**decoder, head_dim=16)),
        "mistral": lambda: T.MistralModel(T.MistralConfig(**decoder)),
        "gemma": lambda: T.GemmaModel(T.GemmaConfig(**decoder, head_dim=16)),
        "gpt2": lambda: T.GPT2Model(T.GPT2Config(n_embd=64, n_layer=2, n_head=4,
                                                 vocab_size=128, n_positions=64)),
        "bert": lambda: T.BertModel(T.BertConfig(**tiny)),
        "t5": lambda: T.T5EncoderModel(T.T5Config(d_model=64, d_ff=128, d_kv=16,
                                                  num_layers=2, num_heads=4,
                                                  vocab_size=128)),
        # Parallel residual blocks (x + attn(ln(x)) + mlp(ln(x))): the
        # attention output projection and the MLP's down projection
        # contract over different lengths.
        "gpt_neox": lambda: T.GPTNeoXModel(T.GPTNeoXConfig(**tiny,
                                                           rotary_pct=0.5)),
        "falcon": lambda: T.FalconModel(T.FalconConfig(
            hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            vocab_size=128, parallel_attn=True, bias=True)),
        "cohere": lambda: T.CohereModel(T.CohereConfig(**decoder)),
        "gptj": lambda: T.GPTJModel(T.GPTJConfig(n_embd=64, n_layer=2, n_head=4,
                                                 vocab_size=128, n_positions=64,
                                                 rotary_dim=8)),
        "phi": lambda: T.PhiModel(T.PhiConfig(**decoder)),
        # Mixture of experts (8 experts, top 2), through transformers'
        # batched_mm experts implementation (run() selects it): a softmax
        # router, topk, and every expert's GEMM over every token, weighted
        # by the routing (zero for the experts a token was not routed to).
        "mixtral": lambda: T.MixtralModel(T.MixtralConfig(
            **decoder, num_local_experts=8, num_experts_per_tok=2)),
        # A shared expert beside the routed ones, gated by a sigmoid.
        "qwen2_moe": lambda: T.Qwen2MoeModel(T.Qwen2MoeConfig(
            **decoder, num_experts=8, num_experts_per_tok=2,
            moe_intermediate_size=32, shared_expert_intermediate_size=64)),
        "qwen3_moe": lambda: T.Qwen3MoeModel(T.Qwen3MoeConfig(
            **decoder, head_dim=16, num_experts=8, num_experts_per_tok=2,
            moe_intermediate_size=32)),
        "olmoe": lambda: T.OlmoeModel(T.OlmoeConfig(
            **decoder, num_experts=8, num_experts_per_tok=2)),
        # Multi-head latent attention (low-rank queries and keys/values,
        # a decoupled rotary part), routing limited to the best group of
        # experts (sigmoid scores with a bias, two rounds of topk), a
        # shared expert; the first layer dense.
        "deepseek_v3": lambda: T.DeepseekV3Model(T.DeepseekV3Config(
            **dict(decoder, num_key_value_heads=4), n_routed_experts=8,
            num_experts_per_tok=2, n_group=2, topk_group=1, moe_intermediate_size=32,
            first_k_dense_replace=1, n_shared_experts=1, q_lora_rank=32,
            kv_lora_rank=16, qk_rope_head_dim=8, qk_nope_head_dim=8, v_head_dim=16)),
        # Attention sinks, sliding-window layers, a softmax over the top k
        # logits, clamped SwiGLU experts with biases.
        "gpt_oss": lambda: T.GptOssModel(T.GptOssConfig(
            **decoder, head_dim=16, num_local_experts=8, num_experts_per_tok=2,
            sliding_window=8)),
        # Complex rotary embeddings (torch.polar, view_as_complex), a
        # sigmoid-gated top-1 expert beside a shared one.
        "llama4": lambda: T.Llama4TextModel(T.Llama4TextConfig(
            **decoder, head_dim=16, num_local_experts=4, num_experts_per_tok=1,
            intermediate_size_mlp=128)),
        "vit": lambda: T.ViTModel(T.ViTConfig(hidden_size=64, intermediate_size=128,
                                              num_hidden_layers=2,
                                              num_attention_heads=4, image_size=32,
                                              patch_size=8)),
    }


class Forward(torch.nn.Module):
    """The model's own forward on token ids (with a padding mask) or
    pixels, returning its last hidden state."""

    def __init__(self, model, family):
        super().__init__()
        self.model, self.family = model, family

    def forward(self, x, mask=None):
        if self.family == "vit":
            return self.model(pixel_values=x).last_hidden_state
        kwargs = dict(input_ids=x, attention_mask=mask)
        if self.family not in ("bert", "t5"):
            kwargs["use_cache"] = False
        return self.model(**kwargs).last_hidden_state


def inputs(family, dtype):
    torch.manual_seed(1)
    if family == "vit":
        return (torch.randn(2, 3, 32, 32).to(dtype),)
    ids = torch.randint(0, 128, (2, 12))
    mask = torch.ones(2, 12, dtype=torch.long)
    mask[1, :3] = 0  # left padding in the second sequence
    return ids, mask


def run(family, make, dtype):
    torch.manual_seed(0)
    model = make().eval()
    model.config._attn_implementation = "sdpa"
    if family in MOE:
        model.set_experts_implementation(EXPERTS)
    # Weights representable in bf16, so the f32 model is the exact
    # reference of the bf16 one.
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.to(torch.bfloat16).to(torch.float32))
    f32 = Forward(model, family).eval()
    args32 = inputs(family, torch.float32)
    if dtype == torch.float32:
        module, args = f32, args32
    else:
        import copy
        module = copy.deepcopy(f32).to(dtype)
        args = tuple(a.to(dtype) if a.is_floating_point() else a for a in args32)
    try:
        text = xtile.import_module(module, args)
    except Exception as e:  # noqa: BLE001 - reported
        return f"import FAILED: {type(e).__name__}: {str(e).splitlines()[0][:300]}"
    # Each layer's attention is one kernel: one weighted online fold, and no
    # softmax maximum left in a kernel of its own.
    attention = attention_kernels(text)
    if attention != (LAYERS, 0):
        return (f"import ok, attention FAILED: {attention[0]} fused attention "
                f"kernel(s) and {attention[1]} softmax maxima for {LAYERS} layers")
    start = time.time()
    try:
        fast = xtile.compile(module, args, backend="emu")
    except Exception as e:  # noqa: BLE001 - reported
        lines = str(e).strip().splitlines()
        why = next((l for l in lines if "error:" in l), lines[-1] if lines else "")
        return f"import ok, compile FAILED: {type(e).__name__}: {why.strip()[:300]}"
    took = time.time() - start
    kernels = text.count("\n")
    with torch.no_grad():
        got = fast(*args).to(torch.float32)
        eager = module(*args).to(torch.float32)
        ref = f32(*args32)
    if dtype == torch.float32:
        err = (got - eager).abs().max().item()
        ok = torch.allclose(got, eager, rtol=1.3e-5, atol=1e-4)
    else:
        err = (got - ref).abs().max().item()
        eager_err = (eager - ref).abs().max().item()
        ulp = ref.abs().max().item() * 2 ** -8
        ok = err <= 2 * eager_err + ulp
        err = f"{err:.2e}, eager bf16 {eager_err:.2e}"
    verdict = "match ok" if ok else "match FAILED"
    return (f"import ok ({kernels} lines of Tensor IR), attention fused "
            f"({LAYERS} kernels), compile ok ({took:.1f} s), "
            f"{verdict} (max error {err if isinstance(err, str) else f'{err:.2e}'})")


class NextToken(torch.nn.Module):
    """A causal LM's logits for the last position (no cache)."""

    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, ids):
        return self.lm(input_ids=ids, use_cache=False).logits[:, -1]


def greedy(family="llama", steps=16):
    """Greedy decoding from a tiny Llama or Mixtral causal LM, each step's
    forward compiled by xtile (a new length is a new shape: no dynamic
    shapes yet), against transformers' generate()."""
    import transformers as T
    torch.manual_seed(0)
    cfg = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
               num_attention_heads=4, num_key_value_heads=2,
               vocab_size=128, max_position_embeddings=64)
    if family == "mixtral":
        lm = T.MixtralForCausalLM(T.MixtralConfig(**cfg, num_local_experts=8,
                                                  num_experts_per_tok=2)).eval()
        lm.set_experts_implementation("batched_mm")
    else:
        lm = T.LlamaForCausalLM(T.LlamaConfig(**cfg)).eval()
    lm.config._attn_implementation = "sdpa"
    prompt = torch.randint(0, 128, (1, 5))
    with torch.no_grad():
        expected = lm.generate(prompt, max_new_tokens=steps, do_sample=False,
                               min_new_tokens=steps, pad_token_id=0)
    ids = prompt
    start = time.time()
    step = NextToken(lm).eval()
    for _ in range(steps):
        logits = xtile.compile(step, (ids,), backend="emu")(ids)
        ids = torch.cat([ids, logits.argmax(-1, keepdim=True)], dim=1)
    took = time.time() - start
    same = torch.equal(ids, expected)
    new = ids[0, prompt.shape[1]:].tolist()
    return (f"greedy decoding ({family}), {steps} tokens: {'match ok' if same else 'match FAILED'} "
            f"(xtile {new}, generate() {expected[0, prompt.shape[1]:].tolist()}; "
            f"{took:.1f} s)")


def eager_experts_error():
    """A mixture-of-experts model through transformers' eager experts
    implementation, which torch.export cannot trace: the error names it
    and the implementations to choose."""
    torch.manual_seed(0)
    model = families()["mixtral"]().eval()
    model.set_experts_implementation("eager")
    try:
        xtile.import_module(Forward(model, "mixtral").eval(),
                            inputs("mixtral", torch.float32))
        return "experts eager: FAILED (imported)"
    except xtile.UnsupportedError as e:
        return f"experts eager: {str(e).splitlines()[0]}"


def through_torch_compile(family):
    """torch.compile(backend="xtile") on a family's own forward: the graphs
    TorchDynamo captures, its graph breaks with their reasons, and the
    result against eager."""
    torch.manual_seed(0)
    model = families()[family]().eval()
    model.config._attn_implementation = "sdpa"
    forward = Forward(model, family).eval()
    args = inputs(family, torch.float32)
    explained = torch._dynamo.explain(forward)(*args)
    reasons = [str(b.reason).splitlines()[0] for b in explained.break_reasons]
    torch._dynamo.reset()
    with torch.no_grad():
        got = torch.compile(forward, backend="xtile")(*args)
        expected = forward(*args)
    ok = torch.allclose(got, expected, rtol=1.3e-5, atol=1e-4)
    return (f"torch.compile {family}: {explained.graph_count} graph(s), "
            f"{explained.graph_break_count} graph break(s) {reasons}, "
            f"{'match ok' if ok else 'match FAILED'} "
            f"(max error {(got - expected).abs().max().item():.2e})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("families", nargs="*")
    parser.add_argument("--dtypes", default="float32,bfloat16")
    parser.add_argument("--generate", action="store_true",
                        help="greedy decoding from a tiny Llama (or the families "
                        "named: llama, mixtral) instead")
    parser.add_argument("--experts", default="batched_mm",
                        help="transformers' experts implementation for the MoE "
                        "families (batched_mm, grouped_mm; eager: the error it gives)")
    parser.add_argument("--torch-compile", action="store_true",
                        help="the families through torch.compile(backend='xtile')")
    opts = parser.parse_args()
    if opts.torch_compile:
        lines = [through_torch_compile(f) for f in opts.families or ["llama", "bert"]]
        print("\n".join(lines))
        return 1 if any("FAILED" in l for l in lines) else 0
    if opts.experts == "eager":
        line = eager_experts_error()
        print(line)
        return 1 if "FAILED" in line else 0
    global EXPERTS
    EXPERTS = opts.experts
    if opts.generate:
        lines = [greedy(f) for f in opts.families or ["llama"]]
        print("\n".join(lines))
        return 1 if any("FAILED" in l for l in lines) else 0
    table = families()
    names = opts.families or list(table)
    passed = failed = 0
    for name in names:
        for dtype in [getattr(torch, d) for d in opts.dtypes.split(",")]:
            line = run(name, table[name], dtype)
            print(f"{name} {str(dtype).split('.')[-1]}: {line}")
            sys.stdout.flush()
            if "FAILED" in line:
                failed += 1
            else:
                passed += 1
    print(f"hf_models: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
