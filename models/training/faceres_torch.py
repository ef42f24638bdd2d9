"""faceres (Human's MobileNetV1 face network) in PyTorch, read from and written back to its TensorFlow.js graph.

The graph in @vladmandic/human/models/faceres.json has batch norm already folded: each standard convolution is
Conv2D (kernel with the BN scale merged in) + Add (shift), each depthwise one DepthwiseConv2dNative + Mul (scale)
+ Add (shift), each followed by ReLU6; then a global mean, `feats` (1024 -> 256, ReLU) and `age_pred`
(256 -> 100, softmax) and `gender_pred` (256 -> 1, sigmoid). Padding is TensorFlow's SAME, which for a stride-2
3x3 window on an even size pads one pixel after and none before, so the convolutions pad explicitly.

Input: the face crop resized to the model's size, RGB 0-255, as the engine feeds it (NCHW here, NHWC in tfjs).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# (in, out, stride) of the 13 depthwise-separable blocks of MobileNetV1 at width 1.0
BLOCKS = [
    (32, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1), (256, 512, 2),
    (512, 512, 1), (512, 512, 1), (512, 512, 1), (512, 512, 1), (512, 512, 1), (512, 1024, 2),
    (1024, 1024, 1),
]


def same_pad(x: torch.Tensor, stride: int) -> torch.Tensor:
    """TensorFlow SAME padding for a 3x3 window."""
    h, w = x.shape[-2:]
    ph = max((-(-h // stride) - 1) * stride + 3 - h, 0)
    pw = max((-(-w // stride) - 1) * stride + 3 - w, 0)
    return F.pad(x, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))


def relu6(x: torch.Tensor) -> torch.Tensor:
    return torch.clamp(x, 0.0, 6.0)


class Faceres(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, stride=2, bias=True)
        self.dw = nn.ModuleList([nn.Conv2d(c, c, 3, stride=s, groups=c, bias=True) for c, _, s in BLOCKS])
        self.pw = nn.ModuleList([nn.Conv2d(c, o, 1, bias=True) for c, o, _ in BLOCKS])
        self.feats = nn.Linear(1024, 256)
        self.age = nn.Linear(256, 100)
        self.gender = nn.Linear(256, 1)

    def backbone(self, x: torch.Tensor) -> torch.Tensor:
        x = relu6(self.conv1(same_pad(x, 2)))
        for (_, _, s), dw, pw in zip(BLOCKS, self.dw, self.pw):
            x = relu6(dw(same_pad(x, s)))
            x = relu6(pw(x))
        return x.mean(dim=(2, 3))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Returns the age logits (100 bins, ages 0-99) and the 256-d `feats` activations."""
        f = F.relu(self.feats(self.backbone(x)))
        return self.age(f), f


# ---- reading and writing the TensorFlow.js graph -------------------------------------------------------------

def _read_weights(model_json: Path) -> tuple[dict, dict[str, np.ndarray]]:
    spec = json.loads(model_json.read_text())
    out: dict[str, np.ndarray] = {}
    for group in spec["weightsManifest"]:
        buf = b"".join((model_json.parent / p).read_bytes() for p in group["paths"])
        off = 0
        for w in group["weights"]:
            n = int(np.prod(w["shape"])) if w["shape"] else 1
            q = (w.get("quantization") or {}).get("dtype")
            dtype = {"float16": np.float16, None: {"float32": np.float32, "int32": np.int32}[w["dtype"]]}[q]
            size = n * np.dtype(dtype).itemsize
            arr = np.frombuffer(buf, dtype=dtype, count=n, offset=off).astype(
                np.float32 if w["dtype"] == "float32" else np.int32
            )
            out[w["name"]] = arr.reshape(w["shape"])
            off += size
    return spec, out


def _layer_names():
    yield "conv1", "conv1/convolution/merged_input", None, "conv1_bn/batchnorm_1/sub"
    for i in range(1, 14):
        yield (f"dw{i}", f"conv_dw_{i}/depthwise_kernel", f"conv_dw_{i}_bn/batchnorm_1/mul",
               f"conv_dw_{i}_bn/batchnorm_1/sub")
        yield f"pw{i}", f"conv_pw_{i}/convolution/merged_input", None, f"conv_pw_{i}_bn/batchnorm_1/sub"


def _module(model: Faceres, key: str) -> nn.Module:
    if key == "conv1":
        return model.conv1
    return (model.dw if key.startswith("dw") else model.pw)[int(key[2:]) - 1]


def load_tfjs(model_json: Path) -> Faceres:
    """faceres with the weights of a tfjs graph (Human's own, or one written by `save_tfjs`)."""
    _, w = _read_weights(model_json)
    model = Faceres()
    with torch.no_grad():
        for key, kernel, scale, shift in _layer_names():
            m = _module(model, key)
            k = w[kernel]  # HWIO (conv) or HWC1 (depthwise)
            if key.startswith("dw"):
                k = k * w[scale].reshape(1, 1, -1, 1)
                m.weight.copy_(torch.from_numpy(np.ascontiguousarray(k.transpose(2, 3, 0, 1))))
                m.bias.copy_(torch.from_numpy(w[shift]))
            else:
                m.weight.copy_(torch.from_numpy(np.ascontiguousarray(k.transpose(3, 2, 0, 1))))
                m.bias.copy_(torch.from_numpy(w[shift]))
        for name, lin in (("feats", model.feats), ("age_pred", model.age), ("gender_pred", model.gender)):
            lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(w[f"{name}/kernel"].T)))
            lin.bias.copy_(torch.from_numpy(w[f"{name}/bias"]))
    return model


def round_to_float16(model: Faceres) -> Faceres:
    """The weights as the float16 graph stores them: golden outputs are computed from this copy."""
    m = copy.deepcopy(model)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(p.half().float())
    return m


def save_tfjs(model: Faceres, template_json: Path, out_json: Path, size: int) -> None:
    """Writes `model` into a copy of faceres's graph (same nodes, float16 weights) with a fixed input size."""
    spec, w = _read_weights(template_json)
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in model.state_dict().items()}
    for key, kernel, scale, shift in _layer_names():
        prefix = "conv1" if key == "conv1" else f"{'dw' if key.startswith('dw') else 'pw'}.{int(key[2:]) - 1}"
        k = sd[f"{prefix}.weight"]
        if key.startswith("dw"):
            w[kernel] = k.transpose(2, 3, 0, 1)  # OIHW (C,1,3,3) -> HWC1
            w[scale] = np.ones_like(w[scale])
        else:
            w[kernel] = k.transpose(2, 3, 1, 0)  # OIHW -> HWIO
        w[shift] = sd[f"{prefix}.bias"]
    for name, attr in (("feats", "feats"), ("age_pred", "age"), ("gender_pred", "gender")):
        w[f"{name}/kernel"] = sd[f"{attr}.weight"].T
        w[f"{name}/bias"] = sd[f"{attr}.bias"]

    blob = bytearray()
    for group in spec["weightsManifest"]:
        for entry in group["weights"]:
            arr = w[entry["name"]]
            assert list(arr.shape) == list(entry["shape"]), (entry["name"], arr.shape, entry["shape"])
            q = (entry.get("quantization") or {}).get("dtype")
            blob += np.ascontiguousarray(arr, dtype=np.float16 if q == "float16" else
                                         (np.int32 if entry["dtype"] == "int32" else np.float32)).tobytes()
        group["paths"] = [out_json.with_suffix(".bin").name]
    dims = spec["signature"]["inputs"]["input_1"]["tensorShape"]["dim"]
    dims[1]["size"] = dims[2]["size"] = str(size)
    for node in spec["modelTopology"]["node"]:
        if node["op"] == "Placeholder" and "shape" in node.get("attr", {}):
            shape = node["attr"]["shape"].get("shape", {}).get("dim")
            if shape and len(shape) == 4:
                shape[1]["size"] = shape[2]["size"] = str(size)
    spec["generatedBy"] = "attestly models/training/faceres_torch.py"
    out_json.write_text(json.dumps(spec, separators=(",", ":")))
    out_json.with_suffix(".bin").write_bytes(bytes(blob))


def expected_age(logits: torch.Tensor) -> torch.Tensor:
    return (torch.softmax(logits, dim=1) * torch.arange(100, dtype=logits.dtype)).sum(dim=1)


if __name__ == "__main__":  # smoke check: Human's faceres read and written back unchanged
    import sys

    src = Path(sys.argv[1])
    m = load_tfjs(src)
    x = torch.rand(2, 3, 224, 224) * 255
    logits, _ = m(x)
    print("age", expected_age(logits).tolist())
