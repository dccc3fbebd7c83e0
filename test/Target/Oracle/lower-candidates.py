"""Lowers modules with each tensor-core schedule the schedule space proposes.

  lower-candidates.py XTILE_OPT XTILE_TRANSLATE OUT_DIR TARGET MODULE[:tf32]...

For each module, `xtile-opt --xtile-list-schedules` gives every kernel's
candidates on TARGET (with tf32 allowed after `:tf32`); each distinct
tensor-core candidate, up to what does not change an encoding (the pipeline
depth; one mma.sync candidate per K step and warp grid), is forced on the
module (`--lower-to-kernel=force-schedule=`) and translated to CUDA C in
OUT_DIR. Writes the files' list to OUT_DIR/files.txt for cute-oracle
(cute-oracle.test) and prints how many candidates there were.
"""
import json
import pathlib
import re
import subprocess
import sys


def fields(schedule):
    return dict(re.findall(r"(\w+) = (\w+)", schedule))


def key(schedule):
    f = fields(schedule)
    if f.get("instruction") == "wgmma":
        return ("wgmma", f["block_m"], f["block_n"], f["block_k"], f["warps"],
                f.get("warps_m"), f.get("tf32"), f.get("warp_specialized"))
    return ("mma_sync", f["block_k"], f.get("warps_m"), f["warps"],
            f.get("tf32"))


def main():
    opt, translate, out, target = sys.argv[1:5]
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for spec in sys.argv[5:]:
        module, _, flag = spec.partition(":")
        tf32 = flag == "tf32"
        name = pathlib.Path(module).stem
        loop = out / f"{name}.loop.mlir"
        listed = out / f"{name}.candidates.json"
        subprocess.run([opt, "--lower-to-loop", module, "-o", str(loop)],
                       check=True)
        options = f"target={target} output={listed}"
        if tf32:
            options += " allow-tf32=true"
        subprocess.run([opt, str(loop), "-o", "/dev/null",
                        f"--xtile-list-schedules={options}"], check=True)
        report = json.loads(listed.read_text())
        total, chosen = 0, {}
        for kernel in report["kernels"]:
            for candidate in kernel["candidates"]:
                schedule = candidate["schedule"]
                instruction = fields(schedule).get("instruction")
                if instruction not in ("wgmma", "mma_sync"):
                    continue
                total += 1
                chosen.setdefault(key(schedule), schedule)
        lowered = {"wgmma": 0, "mma_sync": 0}
        for i, schedule in enumerate(chosen.values()):
            kernel_ir = out / f"{name}.{i}.mlir"
            cuda = out / f"{name}.{i}.cu"
            lower = f"target={target} force-schedule='{schedule}'"
            if tf32:
                lower += " allow-tf32=true"
            subprocess.run([opt, f"--lower-to-kernel={lower}", module, "-o",
                            str(kernel_ir)], check=True)
            subprocess.run([translate, "--mlir-to-cuda", str(kernel_ir), "-o",
                            str(cuda)], check=True)
            kernel_ir.unlink()
            lowered[fields(schedule)["instruction"]] += 1
            files.append(str(cuda))
        print(f"{name}: {total} tensor-core candidates on {target}; lowered "
              f"{lowered['wgmma']} wgmma and {lowered['mma_sync']} mma.sync "
              f"schedules (distinct up to pipeline depth)")
    (out / "files.txt").write_text("\n".join(files) + "\n")


if __name__ == "__main__":
    main()
