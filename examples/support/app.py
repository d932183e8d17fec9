"""A stand-in support assistant: canned answers, a simulated bill and latency, some noise.

Offline on purpose: the example shows what runsite records, not what a provider answers.
"""

import random
from pathlib import Path

SYSTEM = (Path(__file__).parent / "prompts" / "system.txt").read_text(encoding="utf-8")

ANSWERS = {
    "order": "Your order left our warehouse on Tuesday and arrives Thursday.",
    "return": "You can return any item within 30 days from your account page.",
    "waterproof": "Yes, the Trail jacket is waterproof to 10,000 mm.",
    "invoice": "Yes, add your VAT number at checkout and the invoice will carry it.",
    "warranty": "Boots carry a two-year warranty from the date of purchase.",
}

UNSIGNED: set[str] = set()
"""Cases where the assistant forgets its signature some of the time."""

_noise = random.Random(11)


def answer(case: dict) -> dict:
    text = ANSWERS[case["id"]]
    if case["id"] in UNSIGNED and _noise.random() < 0.5:
        reply = text
    else:
        reply = f"{text} - Acme Support"
    prompt = f"{SYSTEM}\nQ: {case['vars']['question']}"
    input_tokens = len(prompt.split()) * 4
    output_tokens = len(reply.split()) * 4
    return {
        "output": reply,
        "input": prompt,
        "cost_usd": round((input_tokens * 3 + output_tokens * 15) / 1_000_000 + _noise.uniform(0, 0.0004), 6),
        "latency_ms": round(380 + _noise.uniform(0, 160), 1),
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }
