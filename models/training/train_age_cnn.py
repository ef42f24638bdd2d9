"""Fine-tunes faceres for age on the production face crops (issue 22, R1), two cross-fitted models.

    /usr/bin/python3 models/training/train_age_cnn.py --crops models/.cache/age-crops --out models/.cache/age-cnn \
        [--model a|b|both] [--epochs 8] [--size 128] [--threads 2]

Data: the crops written by models/scripts/dump-age-crops.ts (Human's aligned crop, resized as the engine resizes
it). faces-dev is never trained on: it stays the held-out set that `npm run eval:age` reports. faces-train and
faces-aaf are split into two halves stratified by source x age bucket (seeded); model a trains on half 0 and
model b on half 1, so every training face also gets a score from the model that never saw it (the out-of-fold
scores the age head and its cut-offs are fitted on: scripts/train-age-head.ts --features cnn).

Recipe (../shared/research/age-model.md §4): initialised from faceres (the weights in @vladmandic/human); webcam-like
augmentation (flip, small rotation/scale/shift, brightness and contrast, blur, JPEG re-encoding); loss = KL to a
Gaussian label distribution over the 100 age bins + L1 on the expected age + binary cross-entropy on the
cumulative "age >= t" probabilities at 13, 16, 18, 21 and 25 (the decision's boundaries); balanced sampling over
source x age bucket with ages 13-24 drawn twice as often; AdamW with a cosine schedule.

Writes per model: faceres-age-<m>.json/.bin (the tfjs graph, float16 weights), golden-<m>.json (outputs of the
float16-rounded model on fixture crops, for the tfjs comparison test), and oof-<m>.jsonl (the 100-bin age
distribution of every face the model did not train on, and of its mirror image, from the float16-rounded weights the
graph holds). score_age_cnn.py writes the same out-of-fold scores from the committed graphs without training.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from faceres_torch import load_tfjs, round_to_float16, save_tfjs  # noqa: E402

SEED = 20261127
BUCKETS = [(0, 13, "<13"), (13, 18, "13-17"), (18, 21, "18-20"), (21, 25, "21-24"), (25, 30, "25-29"),
           (30, 50, "30-49"), (50, 200, "50+")]
ORDINAL = [13, 16, 18, 21, 25]
YOUNG = {"13-17", "18-20", "21-24"}


def bucket(age: float) -> str:
    return next(name for lo, hi, name in BUCKETS if lo <= age < hi)


def load_crops(crop_dir: Path, stored: int):
    index, chunks = [], []
    for idx_file in sorted(crop_dir.glob("index-*.jsonl")):
        shard = idx_file.stem.split("-")[1]
        raw = np.fromfile(crop_dir / f"crops-{shard}.u8", dtype=np.uint8).reshape(-1, stored, stored, 3)
        for line in idx_file.read_text().splitlines():
            e = json.loads(line)
            if "crop" not in e or e["crop"] >= len(raw):
                continue
            index.append(e)
            chunks.append(raw[e["crop"]])
    return index, np.stack(chunks)


def halves(index: list[dict]) -> np.ndarray:
    """-1 for faces-dev (held out), else 0/1, stratified by source x age bucket with a seeded shuffle."""
    rng = random.Random(SEED)
    half = np.full(len(index), -1, dtype=np.int64)
    strata: dict[str, list[int]] = {}
    for i, e in enumerate(index):
        if e["set"] != "faces-dev":
            strata.setdefault(f"{e['set']}:{bucket(e['age'])}", []).append(i)
    for key in sorted(strata):
        ids = sorted(strata[key], key=lambda i: index[i]["file"])
        rng.shuffle(ids)
        for j, i in enumerate(ids):
            half[i] = j % 2
    return half


def augment(batch: np.ndarray, size: int, rng: np.random.Generator) -> torch.Tensor:
    """Webcam-like distortions of uint8 NHWC crops -> float NCHW 0-255 at `size`."""
    out = []
    for img in batch:
        pil = Image.fromarray(img)
        if rng.random() < 0.5:
            pil = pil.transpose(Image.FLIP_LEFT_RIGHT)
        if rng.random() < 0.3:
            pil = pil.filter(ImageFilter.GaussianBlur(radius=float(rng.uniform(0.3, 1.2))))
        if rng.random() < 0.5:
            buf = io.BytesIO()
            pil.save(buf, format="JPEG", quality=int(rng.integers(40, 96)))
            pil = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        out.append(np.asarray(pil))
    x = torch.from_numpy(np.stack(out)).permute(0, 3, 1, 2).float()
    n = x.shape[0]
    angle = torch.from_numpy(rng.uniform(-10, 10, n)).float() * math.pi / 180
    scale = torch.from_numpy(rng.uniform(0.92, 1.08, n)).float()
    shift = torch.from_numpy(rng.uniform(-0.04, 0.04, (n, 2))).float()
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, [n, 3, size, size], align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    gain = torch.from_numpy(rng.uniform(0.8, 1.2, (n, 1, 1, 1))).float()
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.from_numpy(rng.uniform(0.8, 1.2, (n, 1, 1, 1))).float()
    x = ((x - mean) * contrast + mean) * gain
    return x.clamp(0, 255)


def as_input(batch: np.ndarray, size: int) -> torch.Tensor:
    """Crops as the engine feeds them: the stored crop is already at the model size."""
    x = torch.from_numpy(batch).permute(0, 3, 1, 2).float()
    if x.shape[-1] != size:
        raise SystemExit(f"crops are {x.shape[-1]} px, the model runs at {size}: dump them again with --size {size}")
    return x


def loss_fn(logits: torch.Tensor, ages: torch.Tensor) -> tuple[torch.Tensor, dict]:
    bins = torch.arange(100, dtype=torch.float32)
    sigma = torch.clamp(ages * 0.05, min=1.5, max=4.0).unsqueeze(1)
    target = torch.exp(-0.5 * ((bins.unsqueeze(0) - ages.unsqueeze(1)) / sigma) ** 2)
    target = target / target.sum(1, keepdim=True)
    logp = F.log_softmax(logits, 1)
    kl = F.kl_div(logp, target, reduction="batchmean")
    p = logp.exp()
    l1 = (p * bins).sum(1).sub(ages).abs().mean()
    tail = torch.flip(torch.cumsum(torch.flip(p, [1]), 1), [1])  # tail[:, t] = P(age >= t)
    bce = sum(
        F.binary_cross_entropy(tail[:, t].clamp(1e-6, 1 - 1e-6), (ages >= t).float()) for t in ORDINAL
    ) / len(ORDINAL)
    loss = kl + 0.05 * l1 + bce
    return loss, {"kl": kl.item(), "l1": l1.item(), "bce": bce.item()}


def train_one(name: str, half_id: int, index, crops, half, args) -> None:
    torch.manual_seed(SEED + half_id)
    rng = np.random.default_rng(SEED + half_id)
    train_ids = np.flatnonzero(half == half_id)
    counts: dict[str, int] = {}
    for i in train_ids:
        key = f"{index[i]['set']}:{bucket(index[i]['age'])}"
        counts[key] = counts.get(key, 0) + 1
    # Each source x bucket stratum is drawn in proportion to the square root of its size (rare strata, such as
    # East Asian adults over 50, are seen more often than their share without being repeated dozens of times),
    # and ages 13-24 twice as often again.
    # With --balance full every stratum is drawn equally often instead (ages 13-24 still twice): each source then
    # shows the network the same age mix, so it cannot learn a source's age prior (All-Age-Faces holds every face
    # aged 10-30 and few older ones, which taught the first networks to read East Asian faces younger).
    power = 1.0 if args.balance == "full" else 0.5
    weights = np.array([
        (2.0 if bucket(index[i]["age"]) in YOUNG else 1.0)
        / counts[f"{index[i]['set']}:{bucket(index[i]['age'])}"] ** power
        for i in train_ids
    ])
    weights /= weights.sum()
    # Start from faceres, or with --continue from this network's committed graph (the same half trained it, so the
    # cross-fitting holds): more epochs of the same recipe without the .pt that a fresh checkout lacks.
    start = Path(args.weights) / f"faceres-age-{name}.json" if args.cont else Path(args.faceres)
    model = load_tfjs(start)
    if args.resume:
        # Continue from this network's own earlier weights (same half, so the cross-fitting holds).
        model.load_state_dict(torch.load(Path(args.out) / f"faceres-age-{name}.pt"))
    head = [p for n, p in model.named_parameters() if n.startswith(("feats", "age"))]
    body = [p for n, p in model.named_parameters() if not n.startswith(("feats", "age", "gender"))]
    opt = torch.optim.AdamW([{"params": body, "lr": args.lr}, {"params": head, "lr": args.lr * 3}],
                            weight_decay=1e-4)
    steps_per_epoch = min(len(train_ids) // args.batch, args.max_steps or 10**9)
    total = steps_per_epoch * args.epochs
    base = [g["lr"] for g in opt.param_groups]
    model.train()
    t0 = time.time()
    step = 0
    if args.cont:
        report_dev(f"{name} as committed", model, index, crops, half, args.size, t0)
    for epoch in range(args.epochs):
        draw = rng.choice(train_ids, size=steps_per_epoch * args.batch, replace=True, p=weights)
        stats = []
        for b in range(steps_per_epoch):
            ids = draw[b * args.batch:(b + 1) * args.batch]
            x = augment(crops[ids], args.size, rng)
            ages = torch.tensor([float(index[i]["age"]) for i in ids])
            warm = min(1.0, (step + 1) / 50)
            for g, lr in zip(opt.param_groups, base):
                g["lr"] = lr * warm * 0.5 * (1 + math.cos(math.pi * step / total))
            logits, _ = model(x)
            loss, parts = loss_fn(logits, ages)
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats.append([loss.item(), parts["l1"], parts["bce"]])
            step += 1
            if step % 20 == 0:
                s = np.mean(stats[-20:], 0)
                print(f"{name} epoch {epoch + 1}/{args.epochs} step {step}/{total} loss {s[0]:.3f} "
                      f"L1 {s[1]:.2f} y bce {s[2]:.3f} ({(time.time() - t0) / step:.2f} s/step)", flush=True)
        torch.save(model.state_dict(), Path(args.out) / f"faceres-age-{name}.pt")
        report_dev(f"{name} epoch {epoch + 1}", model, index, crops, half, args.size, t0)
    export(name, half_id, model, index, crops, half, args)


def report_dev(label: str, model, index, crops, half, size: int, t0: float) -> None:
    """Progress on faces-dev, which no network trains on (reported, never used to choose anything)."""
    dev = np.flatnonzero(half == -1)
    p = predict(model, crops[dev], size)
    model.train()
    est = (p * np.arange(100)).sum(1)
    true = np.array([index[i]["age"] for i in dev], dtype=float)
    teen = (true >= 13) & (true < 18)
    adult = true >= 25
    cut = np.quantile(est[teen], 0.99) if teen.any() else float("nan")
    print(f"{label}: faces-dev MAE {np.abs(est - true).mean():.2f} y; adults 25+ above the "
          f"99th percentile of 13-17: {(est[adult] > cut).mean() * 100:.1f} % ({time.time() - t0:.0f} s)",
          flush=True)


@torch.no_grad()
def predict(model, crops: np.ndarray, size: int, mirror: bool = False) -> np.ndarray:
    """Age distributions of the crops, or of their mirror images (the engine reads both and averages them)."""
    model.eval()
    out = []
    for s in range(0, len(crops), 128):
        x = as_input(crops[s:s + 128], size)
        logits, _ = model(torch.flip(x, dims=[3]) if mirror else x)
        out.append(torch.softmax(logits, 1).numpy())
    return np.concatenate(out)


def write_oof(path: Path, index: list[dict], unseen: np.ndarray, probs: np.ndarray, mirrored: np.ndarray) -> None:
    """One line per face a network did not train on: its distributions on the crop and on the mirrored crop."""
    r = lambda v: round(float(v), 7)  # noqa: E731
    with open(path, "w") as f:
        for j, i in enumerate(unseen):
            e = index[i]
            f.write(json.dumps({"set": e["set"], "file": e["file"], "probs": [r(v) for v in probs[j]],
                                "probs_flip": [r(v) for v in mirrored[j]]}) + "\n")


def export(name: str, half_id: int, model, index, crops, half, args) -> None:
    out = Path(args.out)
    rounded = round_to_float16(model)
    save_tfjs(rounded, Path(args.faceres), out / f"faceres-age-{name}.json", args.size)
    # The model's own scores on every face it did not train on (the other half and faces-dev), crop and mirror.
    unseen = np.flatnonzero(half != half_id)
    write_oof(out / f"oof-{name}.jsonl", index, unseen, predict(rounded, crops[unseen], args.size),
              predict(rounded, crops[unseen], args.size, mirror=True))
    # Golden outputs on the committed fixture crops (models/test/fixtures/age-crops.u8), compared with tfjs in a test.
    fixture = Path(args.fixture)
    if fixture.exists():
        fx = np.fromfile(fixture, dtype=np.uint8).reshape(-1, args.size, args.size, 3)
        (out / f"golden-{name}.json").write_text(json.dumps({
            "fixture_sha256": hashlib.sha256(fixture.read_bytes()).hexdigest(),
            "probs": [[round(float(v), 7) for v in p] for p in predict(rounded, fx, args.size)],
        }))
    print(f"{name}: exported; {len(unseen)} out-of-fold faces scored", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--crops", default="models/.cache/age-crops")
    ap.add_argument("--out", default="models/.cache/age-cnn")
    ap.add_argument("--faceres", default="node_modules/@vladmandic/human/models/faceres.json")
    ap.add_argument("--fixture", default="models/test/fixtures/age-crops.u8")
    ap.add_argument("--model", default="both", choices=["a", "b", "both"])
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--batch", type=int, default=48)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--balance", default="sqrt", choices=["sqrt", "full"],
                    help="stratum weights: 1/sqrt(size) or 1/size (source x age bucket)")
    ap.add_argument("--resume", action="store_true", help="start from the saved .pt of the same network")
    ap.add_argument("--continue", dest="cont", action="store_true",
                    help="start from the committed graph of the same network (models/weights)")
    ap.add_argument("--weights", default="models/weights")
    ap.add_argument("--max-steps", type=int, default=0, help="steps per epoch (a smoke run); 0: the whole half")
    ap.add_argument("--export-only", action="store_true", help="export the saved .pt weights again")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    index, crops = load_crops(Path(args.crops), args.size)
    half = halves(index)
    digest = hashlib.sha256(crops.tobytes()).hexdigest()[:16]
    print(f"{len(index)} crops ({digest}); half 0: {(half == 0).sum()}, half 1: {(half == 1).sum()}, "
          f"held out (faces-dev): {(half == -1).sum()}", flush=True)
    (Path(args.out) / "halves.json").write_text(json.dumps(
        {"seed": SEED, "crops_sha256_16": digest,
         "half": {f"{e['set']}/{e['file']}": int(h) for e, h in zip(index, half)}}))
    for name, half_id in (("a", 0), ("b", 1)):
        if args.model not in (name, "both"):
            continue
        if args.export_only:
            model = load_tfjs(Path(args.faceres))
            model.load_state_dict(torch.load(Path(args.out) / f"faceres-age-{name}.pt"))
            export(name, half_id, model, index, crops, half, args)
        else:
            train_one(name, half_id, index, crops, half, args)


if __name__ == "__main__":
    main()
