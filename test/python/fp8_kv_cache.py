# Generation with an fp8 KV cache (xtile.generation.Generator with
# kv_cache_dtype=torch.float8_e4m3fn: e4m3 keys and values with a scale per
# token and head) from a tiny bf16 Llama under the CPU emulation: token for
# token what the same cache step gives eagerly, and its agreement with the
# bf16 cache's tokens over 32 steps. Prints one line per check; FileCheck
# (fp8-kv-cache.test) reads them.
import warnings

import torch

from xtile.generation import CacheStep, Generator

warnings.filterwarnings("ignore")


def eager_generate(model, prompt, new_tokens, max_cache_len, kv_cache_dtype):
    """Greedy tokens from the cache step run eagerly (PyTorch's own fp8
    casts and index_copy_), as the Generator steps it."""
    step = CacheStep(model, max_cache_len, kv_cache_dtype)
    cache = step.new_cache(prompt.shape[0], torch.bfloat16, "cpu")
    ids, out = prompt, [prompt]
    positions = torch.arange(prompt.shape[1])
    with torch.no_grad():
        for n in range(new_tokens):
            if n:
                positions = torch.tensor([prompt.shape[1] + n - 1])
            logits = step(ids, positions, *cache)
            ids = logits[:, -1].float().argmax(-1, keepdim=True)
            out.append(ids)
    return torch.cat(out, 1)


def main():
    import transformers as hf
    torch.manual_seed(0)
    config = hf.LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                            num_hidden_layers=2, num_attention_heads=4,
                            num_key_value_heads=2, max_position_embeddings=256)
    model = hf.LlamaForCausalLM(config).to(torch.bfloat16).eval()
    prompt = torch.randint(0, 128, (1, 8))
    new = 32
    fp8 = Generator(model, max_cache_len=48, backend="emu",
                    kv_cache_dtype=torch.float8_e4m3fn)
    got = fp8.generate(prompt, max_new_tokens=new)
    want = eager_generate(model, prompt, new, 48, torch.float8_e4m3fn)
    same = torch.equal(got, want)
    print(f"fp8 cache: {new} new tokens, {'equal to' if same else 'DIFFERENT FROM'} "
          f"the eager cache step's; {fp8.num_compiles} compiles, "
          f"{fp8.decode_launches()} launches a decode step")
    if not same:
        print(f"  xtile: {got.tolist()}\n  eager: {want.tolist()}")
    plain = Generator(model, max_cache_len=48, backend="emu")
    bf16 = plain.generate(prompt, new)
    print(f"bf16 cache: {plain.decode_launches()} launches a decode step")
    # The prefill's attention dequantizes the cache in its kernel; the fp8
    # cache's extra launches quantize the new keys and values and write them
    # and their scales.
    print(f"prefill launches: fp8 cache {fp8.prefills[1].launches()}, "
          f"bf16 cache {plain.prefills[1].launches()}")
    agree = int((got[0, 8:] == bf16[0, 8:]).sum())
    first = next((i for i in range(new) if got[0, 8 + i] != bf16[0, 8 + i]), None)
    print(f"fp8 against bf16 cache: {agree} of {new} tokens agree"
          + (f" (first difference at step {first})" if first is not None else ""))
    cache = fp8.step.new_cache(1, torch.bfloat16, "cpu")
    print("fp8 cache tensors: " + ", ".join(
        f"{str(t.dtype).removeprefix('torch.')}{list(t.shape)}" for t in cache[:4]))
    try:
        Generator(model, max_cache_len=48, kv_cache_dtype=torch.float8_e5m2)
    except Exception as e:  # noqa: BLE001
        print(f"e5m2 cache: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
