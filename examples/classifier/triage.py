"""A rule-based stand-in for an expense-triage model: flags claims a person should review."""

CAPS = {"hotel": 300.0, "meal": 120.0, "travel": 150.0, "training": 600.0}


def classify(case: dict) -> dict:
    claim = case["vars"]
    reasons = []
    if claim["amount"] > CAPS[claim["category"]]:
        reasons.append("over the category cap")
    if not claim["receipt"]:
        reasons.append("no receipt")
    if claim["weekend"] and claim["category"] == "meal":
        reasons.append("a meal on a weekend")
    if claim.get("duplicate"):
        reasons.append("possible duplicate")
    decision = "REVIEW" if reasons else "APPROVE"
    return {"output": decision, "cost_usd": 0.00012, "usage": {"input_tokens": 60, "output_tokens": 12}}
