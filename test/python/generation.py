# Greedy generation from tiny Hugging Face models (random weights) through
# xtile with a static KV cache (xtile.generation.Generator), under the CPU
# emulation: token for token what model.generate() makes, with one compile
# for the prefill and one for the decode step. Prints one line per check;
# FileCheck (generation.test) reads them.
import time
import warnings

import torch

import xtile
from xtile.generation import Generator

warnings.filterwarnings("ignore")


def tiny(kind):
    import transformers as hf
    common = dict(vocab_size=128, hidden_size=64, intermediate_size=128,
                  num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                  max_position_embeddings=256)
    if kind == "llama":
        return hf.LlamaForCausalLM(hf.LlamaConfig(**common))
    return hf.Qwen2ForCausalLM(hf.Qwen2Config(**common))


def generate(name, model, prompt, new_tokens, max_cache_len, eos=None):
    model.eval()
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = 0
    with torch.no_grad():
        expected = model.generate(prompt, max_new_tokens=new_tokens, do_sample=False,
                                  attention_mask=torch.ones_like(prompt))
    gen = Generator(model, max_cache_len=max_cache_len, backend="emu")
    start = time.time()
    got = gen.generate(prompt, max_new_tokens=new_tokens)
    seconds = time.time() - start
    new = got.shape[1] - prompt.shape[1]
    same = got.shape == expected.shape and torch.equal(got, expected)
    print(f"{name}: {new} new tokens, {'equal to' if same else 'DIFFERENT FROM'} "
          f"generate(); {len(gen.prefills)} prefill ("
          f"{'static' if gen.static_prefills else 'dynamic'} length) and {len(gen.decodes)} decode "
          f"program(s), {gen.num_compiles} compiles ({seconds:.1f} s)" +
          (f"; {int((got[:, prompt.shape[1]:] == 0).sum())} padded after eos"
           if eos is not None else ""))
    if not same:
        print(f"  xtile:    {got.tolist()}\n  generate: {expected.tolist()}")
    return gen


def main():
    torch.manual_seed(0)
    llama = tiny("llama")
    prompt = torch.randint(0, 128, (1, 8))
    gen = generate("llama", llama, prompt, 64, max_cache_len=80)
    # The decode step is compiled once over the span of the cache it
    # attends to (L, a dynamic size): its attention's online fold runs to
    # L, reading the first L keys and values, not the whole cache.
    import re
    import subprocess
    decode = gen.decodes[1]
    loop_ir = subprocess.run(["xtile-opt", "--lower-to-loop"], input=decode.mlir,
                             capture_output=True, text=True, check=True).stdout
    symbols = re.search(r"xtensor.symbols = \{([^}]*)\}", decode.mlir)
    folds = re.findall(r"xloop.online_fold %\w+ = 0 to (\S+)", loop_ir)
    print(f"llama decode step: over {symbols[1] if symbols else 'no dynamic size'}; "
          f"span {gen.span(8)} at position 8, {gen.span(71)} at position 71; "
          f"attention's online folds to {sorted(set(folds))}; "
          f"{gen.decode_launches(1, 8)} and {gen.decode_launches(1, 71)} launches")
    # Another prompt of the same length: nothing compiles again.
    again = gen.generate(torch.randint(0, 128, (1, 8)), max_new_tokens=4)
    print(f"llama again: {again.shape[1] - 8} new tokens, {gen.num_compiles} compiles")
    # Another prompt length: the prefill's import serves it; one compile.
    longer = torch.randint(0, 128, (1, 11))
    with torch.no_grad():
        expected = llama.generate(longer, max_new_tokens=5, do_sample=False,
                                  attention_mask=torch.ones_like(longer))
    imports = xtile.import_exported
    counted = []
    xtile.import_exported = lambda *a, **k: counted.append(1) or imports(*a, **k)
    try:
        got = gen.generate(longer, max_new_tokens=5)
    finally:
        xtile.import_exported = imports
    print(f"llama, prompt of 11: {'equal to' if torch.equal(got, expected) else 'DIFFERENT FROM'}"
          f" generate(); {gen.num_compiles} compiles, {len(counted)} new import(s)")
    # A batch of two, stopping at an end-of-sequence token: the sequence
    # that ends first is padded, as generate() pads it.
    batch = torch.randint(0, 128, (2, 5))
    with torch.no_grad():
        first = llama.generate(batch, max_new_tokens=6, do_sample=False,
                               attention_mask=torch.ones_like(batch))
    eos = int(first[0, 5 + 2])  # the first sequence's third token ends it
    pair = generate("llama batch 2 with eos", llama, batch, 12, max_cache_len=20, eos=eos)
    # The batch's prefill is compiled over a dynamic length too: another
    # prompt length compiles nothing new.
    other = torch.randint(0, 128, (2, 9))
    with torch.no_grad():
        expected = llama.generate(other, max_new_tokens=3, do_sample=False,
                                  attention_mask=torch.ones_like(other))
    got = pair.generate(other, max_new_tokens=3)
    print(f"llama batch 2, prompt of 9: "
          f"{'equal to' if torch.equal(got, expected) else 'DIFFERENT FROM'} generate(); "
          f"{pair.num_compiles} compiles")
    generate("qwen2", tiny("qwen2"), torch.randint(0, 128, (1, 6)), 16, max_cache_len=24)
    try:
        Generator(llama, max_cache_len=16, backend="emu").generate(prompt, 9)
    except ValueError as e:
        print(f"too long: {e}")


if __name__ == "__main__":
    main()
