"""Scores the production face crops with the committed age networks, out of fold (issue 22).

    /usr/bin/python3 models/training/score_age_cnn.py [--crops models/.cache/age-crops] \
        [--weights models/weights] [--out models/.cache/age-cnn] [--threads 2]

The networks in models/weights (faceres-age-a/-b, float16 TensorFlow.js graphs) were trained by train_age_cnn.py on
the two seeded halves of faces-train + faces-aaf; this script rebuilds the same halves from the crops and has each
network score only the faces it did not train on (the other half and faces-dev), exactly as the trainer's export
does, so the age head can be refitted (scripts/train-age-head.ts --features cnn) without retraining the networks.
It checks that the halves are the ones the committed networks were trained on when the trainer's halves.json is
at hand, and refuses a crop set whose size differs from the networks' input.

Per face and network it writes the 100-bin age distribution of the crop (`probs`) and of its mirror image
(`probs_flip`): the engine averages both (models/src/age-cnn.ts).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from faceres_torch import load_tfjs  # noqa: E402
from train_age_cnn import halves, load_crops, predict, write_oof  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--crops", default="models/.cache/age-crops")
    ap.add_argument("--weights", default="models/weights")
    ap.add_argument("--out", default="models/.cache/age-cnn")
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index, crops = load_crops(Path(args.crops), args.size)
    half = halves(index)
    saved = out / "halves.json"
    if saved.exists():
        before = json.loads(saved.read_text())["half"]
        moved = [k for k, h in ((f"{e['set']}/{e['file']}", int(h)) for e, h in zip(index, half))
                 if k in before and before[k] != h]
        if moved:
            raise SystemExit(f"{len(moved)} faces changed half since the networks were trained (e.g. {moved[0]})")
    print(f"{len(index)} crops; half 0: {(half == 0).sum()}, half 1: {(half == 1).sum()}, "
          f"faces-dev: {(half == -1).sum()}", flush=True)
    for name, half_id in (("a", 0), ("b", 1)):
        t0 = time.time()
        model = load_tfjs(Path(args.weights) / f"faceres-age-{name}.json")
        unseen = np.flatnonzero(half != half_id)
        write_oof(out / f"oof-{name}.jsonl", index, unseen, predict(model, crops[unseen], args.size),
                  predict(model, crops[unseen], args.size, mirror=True))
        print(f"{name}: {len(unseen)} out-of-fold faces scored in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
