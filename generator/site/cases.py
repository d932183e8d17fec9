"""How a run page names a case, words a step of a trajectory, and shows each case in a place
of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from generator.account.charts import STATUS_LETTER
from generator.account.figures import CaseLine
from generator.account.skeletons import Skeleton, StepShape
from generator.reading.formats import Formats


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
        if not finish:
            return actor, "", False
        return actor, t.get(f"finish.{finish}") or t["step.finish"].format(finish=finish), False
    said = f"{tool or t['step.unnamed']} · {t['trajectory.status.' + str(status)]}"
    return actor, said, status == "error"


def case_views(
    lines: Sequence[CaseLine],
    names: Sequence[str],
    trajectories: Sequence[Skeleton],
    cases: str,
    labels: Mapping[str, str],
    figures: Formats,
) -> Markup:
    """Each case of a run in a place of its own, opened from its row of the grid: its
    verdicts (score, the range of its samples, threshold), each trajectory its answers took as a
    timeline with the verdicts of the checks that judged those steps beside it, and a link to
    its history on the page of the suite's cases (``cases``, that page's address)."""
    t = {key: escape(text) for key, text in labels.items()}
    head = (
        f"<thead><tr><th scope=col>{t['column.check']}<th scope=col>{t['column.outcome']}"
        f"<th scope=col>{t['column.score']}<th scope=col>{t['column.samples']}"
        f"<th scope=col>{t['column.threshold']}</thead>"
    )
    timelines = [_timeline(skeleton, labels) for skeleton in trajectories]
    checks = [escape(name) for name in names]

    def verdicts(line: CaseLine) -> str:
        rows = []
        for name, cell in zip(checks, line.cells, strict=True):
            if cell is None:
                continue
            letter = STATUS_LETTER[cell.status]
            score = "" if cell.score is None else figures.rounded(cell.score, cell.places)
            samples = "—"
            if cell.samples is not None:
                low, high = cell.samples
                samples = (
                    f"{figures.rounded(low, cell.places)}–{figures.rounded(high, cell.places)}"
                )
            threshold = "—" if letter == "m" else figures.rounded(cell.threshold, cell.places)
            rows.append(
                f"<tr><th scope=row>{name}<td class={letter}>{t['status.' + cell.status]}"
                f"<td>{score}<td>{samples}<td>{threshold}\n"
            )
        return "".join(rows)

    def steps(line: CaseLine) -> str:
        judged = " ".join(
            f"<span class={STATUS_LETTER[cell.status]}>{name}</span>"
            for name, cell in zip(checks, line.cells, strict=True)
            if cell is not None and cell.steps
        )
        beside = (
            f'<p class="runsite-judged">{t["trajectory.judged"]} {judged}</p>' if judged else ""
        )
        parts = []
        for skeleton, timeline in zip(trajectories, timelines, strict=True):
            answers = skeleton.taken_by(line.case)
            if answers is None:
                continue
            which = (
                t["case.every_answer"]
                if answers == ""
                else t["case.answers"].format(answers=answers)
            )
            title = t["trajectory.title"].format(number=skeleton.number)
            parts.append(
                f'<div class="runsite-case-steps"><div><p><a href="#trajectory-{skeleton.number}">'
                f"{title}</a> · {which}</p>{timeline}</div>{beside}</div>\n"
            )
        return "".join(parts)

    views = []
    for line in lines:
        anchor = escape(case_anchor(line.case))
        case = escape(line.case)
        body = (
            f"<p>{t['status.suspended']}</p>\n"
            if line.status == "set_aside"
            else f'<div class="runsite-table"><table><caption>{t["case.verdicts"]}</caption>'
            f"{head}<tbody>\n{verdicts(line)}</tbody></table></div>\n{steps(line)}"
        )
        views.append(
            f'<details class="runsite-case" id="{anchor}"><summary>'
            f'<span class="runsite-case-id">{case}</span> '
            f'<span class="runsite-badge {line.status}">{t[CASE_STATUS[line.status]]}</span>'
            f"</summary>\n{body}"
            f'<p><a href="{escape(cases)}#{anchor}">{t["case.history"]}</a></p>\n</details>\n'
        )
    return Markup("".join(views))


CASE_STATUS = {
    "passed": "status.pass",
    "failed": "status.fail",
    "unjudged": "status.error",
    "set_aside": "status.suspended",
}
"""The label of how a case went, as a case's verdict says it."""


def _timeline(skeleton: Skeleton, labels: Mapping[str, str]) -> str:
    """A trajectory's steps as a timeline."""
    if skeleton.oversize:
        return f"<p>{escape(labels['step.oversize'])}</p>"
    if not skeleton.steps:
        return f"<p>{escape(labels['step.no_tools'])}</p>"
    items = []
    for step in skeleton.steps:
        actor, text, failed = step_text(step, labels)
        css = f"{actor} failed" if failed else actor
        items.append(f'<li class="{css}"><b>{escape(labels["step." + actor])}</b> {escape(text)}')
    return '<ol class="runsite-timeline" start="0">\n' + "\n".join(items) + "\n</ol>"
