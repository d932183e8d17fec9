"""A noisy local judge: it rewards a signed, short reply, and wobbles like a real one."""

import random

_noise = random.Random(7)


def rubric(rubric: str, output: str, case: dict) -> dict:
    signed = output.endswith("Acme Support")
    short = output.count(".") <= 2
    base = 0.86 if signed and short else 0.55
    score = min(1.0, max(0.0, base + _noise.uniform(-0.1, 0.1)))
    return {"score": score, "reason": f"signed={signed}, short={short}"}
