"""How a run page names a case and words a step of a trajectory."""

from __future__ import annotations

from collections.abc import Mapping

from generator.account.skeletons import StepShape


def case_anchor(case_id: str) -> str:
    """A case's anchor on every page, the same in both languages and in every build: its id,
    with each character outside letters, digits, ``-`` and ``.`` written as ``_hex_``."""
    return "case-" + "".join(
        c if c.isascii() and (c.isalnum() or c in "-.") else f"_{ord(c):x}_" for c in case_id
    )


def step_text(step: StepShape, t: Mapping[str, str]) -> tuple[str, str, bool]:
    """A step as a page shows it: (actor, what happened, whether it failed)."""
    actor, finish, tool, status = step
    if actor == "model":
        return actor, t["step.finish"].format(finish=finish) if finish else "", False
    said = f"{tool or t['step.unnamed']} · {t['trajectory.status.' + str(status)]}"
    return actor, said, status == "error"
