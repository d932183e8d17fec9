"""English: every phrase of the reading, written for a reader who does not read code."""

from __future__ import annotations

PHRASES: dict[str, str] = {
    "title.run": "Reading of run {run}",
    "title.reference": "Run {run} read against the reference {reference}",
    "title.diff": "Runs {left} and {right}, side by side",
    "heading.ran": "The run in figures",
    "heading.setup": "Conditions of the measurement",
    "heading.found": "Failed, not judged and set aside",
    "heading.underneath": "Differences in setup",
    "heading.moved": "Check by check against the reference",
    "heading.samples": "What the samples show",
    "heading.head": "Summary of the two runs",
    "heading.checks": "Check by check",
    "nothing": "Nothing to report.",
    "where.case": "{check} on case {case}",
    "where.run": "{check} over the whole run",
    # The run in figures
    "fact.tally.judge_changed": (
        "The judge is not the one the reference was scored with, so these scores are not "
        "comparable to the reference's."
    ),
    "fact.tally.rejudged": (
        "These scores come from judging the answers recorded by run {source}; no new answers "
        "were collected."
    ),
    "fact.tally.cases.one": "{count} case was in the run.",
    "fact.tally.cases.other": "{count} cases were in the run.",
    "fact.tally.suspended.one": "{count} of them was set aside and not measured.",
    "fact.tally.suspended.other": "{count} of them were set aside and not measured.",
    "fact.tally.checks.one": "{count} check ran: {passed} passed, {failed} failed.",
    "fact.tally.checks.other": "{count} checks ran: {passed} passed, {failed} failed.",
    "fact.tally.measured.one": (
        "{count} check measured on a scale of its own, with no threshold declared to judge it by: "
        "it counts as neither passed nor failed."
    ),
    "fact.tally.measured.other": (
        "{count} checks measured on a scale of their own, with no threshold declared to judge "
        "them by: they count as neither passed nor failed."
    ),
    "fact.tally.unjudged.one": (
        "{count} check could not be judged, so on that point the run says nothing."
    ),
    "fact.tally.unjudged.other": (
        "{count} checks could not be judged, so on those points the run says nothing."
    ),
    "fact.tally.nothing_judged": "Not a single check produced a score.",
    "fact.tally.calibration.one": (
        "{count} calibration check landed outside the band set for its judge: the judge's "
        "scale is not the one it was calibrated to."
    ),
    "fact.tally.calibration.other": (
        "{count} calibration checks landed outside the bands set for their judge: the judge's "
        "scale is not the one it was calibrated to."
    ),
    "fact.tally.on_the_line.one": (
        "{count} check is on the line: its samples straddle its threshold, so whether it "
        "passed depends on which samples were drawn."
    ),
    "fact.tally.on_the_line.other": (
        "{count} checks are on the line: their samples straddle their thresholds, so whether "
        "they passed depends on which samples were drawn."
    ),
    "fact.tally.moved": (
        "Against the reference: {regressed} worse, {errored} not judged on one side or both, "
        "{new} new, {missing} gone, {improved} better, {unchanged} unchanged."
    ),
    "fact.tally.denominator_moved.one": (
        "{count} whole-run check counted a different number of cases from the reference, so "
        "its score is never read as unchanged."
    ),
    "fact.tally.denominator_moved.other": (
        "{count} whole-run checks counted a different number of cases from the reference, so "
        "their scores are never read as unchanged."
    ),
    "fact.tally.within_noise.one": (
        "{count} check moved by less than the reference's noise floor."
    ),
    "fact.tally.within_noise.other": (
        "{count} checks moved by less than the reference's noise floor."
    ),
    "fact.tally.nothing_paired": (
        "No check of one run pairs with a check of the other, so nothing was compared and "
        "nothing can be said to be better or worse."
    ),
    "fact.tally.unpaired.one": (
        "{count} verdict of the two runs pairs with none of the other run's: {identity} because "
        "the runs give its check different identities (assertion_id), {rules} because the "
        "rules differ, {cases} because its case is in one run only."
    ),
    "fact.tally.unpaired.other": (
        "{count} verdicts of the two runs pair with none of the other run's: {identity} because "
        "the runs give their check different identities (assertion_id), {rules} because the "
        "rules differ, {cases} because their case is in one run only."
    ),
    "fact.check.unpaired.identity": (
        "The check {check} is in both runs under different identities (assertion_id), so none "
        "of its verdicts pair: the runs identify their checks by different rules."
    ),
    "fact.tally.rules.same": (
        "The rules (checks, thresholds, tolerances, samples) are those of the reference."
    ),
    "fact.tally.rules.changed": (
        "The rules (checks, thresholds, tolerances, samples) differ from the reference's."
    ),
    "fact.tally.unpriced.target": (
        "Not every call to the target reported its cost: the {spent} on record counts only "
        "the calls that did."
    ),
    "fact.tally.unpriced.judge": (
        "Not every call to the judge reported its cost: the {spent} on record counts only the "
        "calls that did."
    ),
    "fact.tally.cost_unknown.target": (
        "What the calls to the target cost is unknown: not every call reported its cost, and "
        "no cost on record is above zero."
    ),
    "fact.tally.cost_unknown.judge": (
        "What the calls to the judge cost is unknown: not every call reported its cost, and "
        "no cost on record is above zero."
    ),
    # Conditions of the measurement
    "fact.setup.run": "Suite {suite}, measured in {environment} on {created_at}.",
    "fact.setup.commit": "Code at commit {commit}.",
    "fact.setup.commit.dirty": (
        "Code at commit {commit} with uncommitted changes, so the code measured is not "
        "exactly that commit."
    ),
    "fact.setup.commit.none": "No commit on record: the suite was not in a git repository.",
    "fact.setup.projected": "Names in this run are replaced by tokens.",
    "fact.setup.target.none": "The target's settings were not declared.",
    "fact.setup.target.identity": "Target: {identity}.",
    "fact.setup.target.value": "Target setting {name}: {value}.",
    "fact.setup.judge.none": "No judge settings were declared.",
    "fact.setup.judge.identity": "Judge: {identity}.",
    "fact.setup.judge.value": "Judge setting {name}: {value}.",
    "fact.setup.withheld.target": "The target setting {name} is withheld from this document.",
    "fact.setup.withheld.judge": "The judge setting {name} is withheld from this document.",
    "fact.setup.artifact": "File under test: {path}.",
    "fact.setup.spent.target": "Calls to the target: {calls}, costing {spent}.",
    "fact.setup.spent.judge": "Calls to the judge: {calls}, costing {spent}.",
    "fact.setup.calls.target": "Calls to the target: {calls}, their cost not known in full.",
    "fact.setup.calls.judge": "Calls to the judge: {calls}, their cost not known in full.",
    # Differences in setup
    "fact.setting.environment": (
        "The environment differs: {before} for the reference, {now} for this run."
    ),
    "fact.setting.target.changed": "Target setting {name} went from {before} to {now}.",
    "fact.setting.target.added": "Target setting {name} is new here, set to {now}.",
    "fact.setting.target.removed": (
        "Target setting {name}, {before} in the reference, is not set here."
    ),
    "fact.setting.target.unknown": (
        "Target setting {name} is withheld on at least one side, so whether it changed is unknown."
    ),
    "fact.setting.judge.changed": "Judge setting {name} went from {before} to {now}.",
    "fact.setting.judge.added": "Judge setting {name} is new here, set to {now}.",
    "fact.setting.judge.removed": (
        "Judge setting {name}, {before} in the reference, is not set here."
    ),
    "fact.setting.judge.unknown": (
        "Judge setting {name} is withheld on at least one side, so whether it changed is unknown."
    ),
    "fact.setting.judge.identity.added": (
        "The judge {identity} scored this run but not the reference."
    ),
    "fact.setting.judge.identity.removed": (
        "The judge {identity} scored the reference but not this run."
    ),
    "fact.setting.threshold.raised": (
        "The threshold of {check} rose from {before} to {now}: a stricter rule."
    ),
    "fact.setting.threshold.lowered": (
        "The threshold of {check} fell from {before} to {now}: a looser rule."
    ),
    "fact.setting.tolerance.narrowed": (
        "The tolerance of {check} narrowed from {before} to {now}."
    ),
    "fact.setting.tolerance.widened": "The tolerance of {check} widened from {before} to {now}.",
    "fact.setting.samples": "The number of samples for {check} went from {before} to {now}.",
    "fact.setting.rule.added": "The check {check} is new in these rules.",
    "fact.setting.rule.removed": "The check {check} is no longer among the rules.",
    "fact.setting.artifact.added": (
        "The file {path} is under test here but was not in the reference."
    ),
    "fact.setting.artifact.removed": (
        "The file {path} was under test in the reference but is not here."
    ),
    "fact.setting.artifact.changed": (
        "The content of the file {path} differs from the reference's."
    ),
    "fact.setting.artifact.unknown": (
        "The file {path} is withheld on at least one side, so whether it changed is unknown."
    ),
    # Check by check against the reference
    "fact.moved.overlap.one": (
        "Of the checks that moved ({moved}), {count} did so with the two runs' sampled "
        "intervals overlapping: on that check the samples do not tell the runs apart."
    ),
    "fact.moved.overlap.other": (
        "Of the checks that moved ({moved}), {count} did so with the two runs' sampled "
        "intervals overlapping: on those checks the samples do not tell the runs apart."
    ),
    "fact.check.overlap": (
        "{where}: the reference sampled {before_low} to {before_high}, this run "
        "{now_low} to {now_high}."
    ),
    "fact.check.regressed.flip": (
        "{where} went from passing to failing: {before} to {now}, against a threshold of "
        "{threshold}."
    ),
    "fact.check.regressed": (
        "{where} dropped from {before} to {now} ({delta}), more than its tolerance of {tolerance}."
    ),
    "fact.check.errored": "{where} could not be judged.",
    "fact.check.errored.raised": (
        "{where} could not be judged: the target, or the code around it, raised an error."
    ),
    "fact.check.errored.shape": (
        "{where} could not be judged: the target returned something that is not an answer."
    ),
    "fact.check.errored.now": "{where} could not be judged in this run.",
    "fact.check.errored.before": (
        "{where} could not be judged in the reference, so this run's score has nothing to be "
        "set against."
    ),
    "fact.check.errored.both": "{where} could not be judged in either run.",
    "fact.check.calibration_missed": (
        "{where} scored {score}, outside the calibration band from {low} to {high}."
    ),
    "fact.check.new": (
        "{where} is new: it scored {now} against a threshold of {threshold}, with nothing in "
        "the reference to set it against."
    ),
    "fact.check.new.error": "{where} is new and could not be judged.",
    "fact.check.missing": "{where} was in the reference and is not in this run.",
    "fact.check.improved.flip": (
        "{where} went from failing to passing: {before} to {now}, against a threshold of "
        "{threshold}."
    ),
    "fact.check.improved": (
        "{where} rose from {before} to {now} ({delta}), more than its tolerance of {tolerance}."
    ),
    "fact.check.unchanged": (
        "{where} moved from {before} to {now} ({delta}), within its tolerance of {tolerance}."
    ),
    "fact.check.within_noise": (
        "{where} moved from {before} to {now}, inside the reference's noise floor of {low} "
        "to {high}."
    ),
    "fact.check.denominator_moved.one": (
        "{where} was computed over {before} case in the reference and over {now} here."
    ),
    "fact.check.denominator_moved.other": (
        "{where} was computed over {before} cases in the reference and over {now} here."
    ),
    # Failed, not judged and set aside
    "fact.check.failed": "{where} failed: {score} against a threshold of {threshold}.",
    "fact.case.suspended": (
        "{case} was not measured: the case was set aside, and the reason stays out of this "
        "document."
    ),
    # What the samples show
    "fact.check.on_the_line": (
        "{where} is on the line: its samples ran from {low} to {high}, some below its "
        "threshold of {threshold} and some at or above it."
    ),
    "fact.check.over_cap.one": (
        "{where}: {count} call in {samples} went over the per-call cap of {cap}; it came to "
        "{worst}."
    ),
    "fact.check.over_cap.other": (
        "{where}: {count} calls in {samples} went over the per-call cap of {cap}; the "
        "costliest came to {worst}."
    ),
    "fact.check.over_cap.at_cap.one": (
        "{where}: {count} call in {samples} went over the per-call cap of {cap}; it sits at "
        "the cap itself, closer than the scores can resolve."
    ),
    "fact.check.over_cap.at_cap.other": (
        "{where}: {count} calls in {samples} went over the per-call cap of {cap}; the "
        "costliest sits at the cap itself, closer than the scores can resolve."
    ),
    "fact.check.over_cap.unbounded.one": (
        "{where}: {count} call in {samples} went over the per-call cap of {cap}; it scored 0, "
        "which puts no figure on its cost."
    ),
    "fact.check.over_cap.unbounded.other": (
        "{where}: {count} calls in {samples} went over the per-call cap of {cap}; the "
        "costliest scored 0, which puts no figure on its cost."
    ),
    "fact.check.spread": (
        "{where}: the judge's samples point three ways: {zero} at 0, {partial} in between, "
        "{full} at 1."
    ),
    # Two runs side by side
    "fact.diff.head.overlap.one": (
        "Of the differences sampled on both sides ({pairs}), {count} has overlapping "
        "intervals: that check does not tell the two runs apart."
    ),
    "fact.diff.head.overlap.other": (
        "Of the differences sampled on both sides ({pairs}), {count} have overlapping "
        "intervals: those checks do not tell the two runs apart."
    ),
    "fact.diff.overlap": (
        "{where}: the left run sampled {left_low} to {left_high}, the right run "
        "{right_low} to {right_high}."
    ),
    "fact.diff.head.checks": (
        "Checks in all: {count}; beyond tolerance: {differing}; within tolerance: {within}."
    ),
    "fact.diff.head.favours": (
        "Differences in favour of the left run: {left}; in favour of the right run: {right}."
    ),
    "fact.diff.head.one_side": (
        "Checks only in the left run: {left}; only in the right run: {right}."
    ),
    "fact.diff.head.errored": (
        "Checks not judged on one side or both, favouring neither run: {count}."
    ),
    "fact.diff.head.exceeds": (
        "Of the differences sampled on both sides ({pairs}), advantages of the left run that "
        "lie beyond both observed intervals: {left}; of the right run: {right}."
    ),
    "fact.diff.favours_left": (
        "{where} favours the left run: {left} against {right}, a gap of {gap}."
    ),
    "fact.diff.favours_left.flip": (
        "{where} passes in the left run and fails in the right: {left} against {right}."
    ),
    "fact.diff.favours_right": (
        "{where} favours the right run: {left} against {right}, a gap of {gap}."
    ),
    "fact.diff.favours_right.flip": (
        "{where} fails in the left run and passes in the right: {left} against {right}."
    ),
    "fact.diff.errored.left": "{where} could not be judged in the left run.",
    "fact.diff.errored.right": "{where} could not be judged in the right run.",
    "fact.diff.errored.both": "{where} could not be judged in either run.",
    "fact.diff.only_left": "{where} is only in the left run.",
    "fact.diff.only_right": "{where} is only in the right run.",
    "fact.diff.within": "{where}: {left} against {right}, within the tolerance of {tolerance}.",
    # Whether two runs differ beyond chance.
    "heading.chance": "Beyond chance?",
    "fact.chance.checks.one": (
        "{count} check was compared case by case, over the cases both runs judged; a p below "
        "0.05 after Holm's correction across the checks counts as beyond chance."
    ),
    "fact.chance.checks.other": (
        "{count} checks were compared case by case, over the cases both runs judged; a p below "
        "0.05 after Holm's correction across the checks counts as beyond chance."
    ),
    "fact.chance.verdicts.one": (
        "{check}: of the {count} case both runs judged, {worse} went from passing to failing "
        "and {better} from failing to passing; if the two runs did not differ, a split at "
        "least this lopsided would arise by chance in {share} of comparisons (p = {p}, exact "
        "McNemar test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.verdicts.other": (
        "{check}: of the {count} cases both runs judged, {worse} went from passing to failing "
        "and {better} from failing to passing; if the two runs did not differ, a split at "
        "least this lopsided would arise by chance in {share} of comparisons (p = {p}, exact "
        "McNemar test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.verdicts.diff.one": (
        "{check}: of the {count} case both runs judged, {left} passed only on the left and "
        "{right} only on the right; if the two runs did not differ, a split at least this "
        "lopsided would arise by chance in {share} of comparisons (p = {p}, exact McNemar "
        "test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.verdicts.diff.other": (
        "{check}: of the {count} cases both runs judged, {left} passed only on the left and "
        "{right} only on the right; if the two runs did not differ, a split at least this "
        "lopsided would arise by chance in {share} of comparisons (p = {p}, exact McNemar "
        "test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.one": (
        "{check}: {count} case changed score, and scores moved by {delta} on average (95% "
        "interval {low} to {high}); if the two runs did not differ, a shift at least this "
        "one-sided would arise by chance in {share} of comparisons (p = {p}, Wilcoxon "
        "signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.other": (
        "{check}: {count} cases changed score, and scores moved by {delta} on average (95% "
        "interval {low} to {high}); if the two runs did not differ, a shift at least this "
        "one-sided would arise by chance in {share} of comparisons (p = {p}, Wilcoxon "
        "signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.diff.left.one": (
        "{check}: {count} case scored differently, the left run higher by {gap} on "
        "average (95% interval {low} to {high}); if the two runs did not differ, a shift at "
        "least this one-sided would arise by chance in {share} of comparisons (p = {p}, "
        "Wilcoxon signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.diff.left.other": (
        "{check}: {count} cases scored differently, the left run higher by {gap} on "
        "average (95% interval {low} to {high}); if the two runs did not differ, a shift at "
        "least this one-sided would arise by chance in {share} of comparisons (p = {p}, "
        "Wilcoxon signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.diff.right.one": (
        "{check}: {count} case scored differently, the right run higher by {gap} on "
        "average (95% interval {low} to {high}); if the two runs did not differ, a shift at "
        "least this one-sided would arise by chance in {share} of comparisons (p = {p}, "
        "Wilcoxon signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.scores.diff.right.other": (
        "{check}: {count} cases scored differently, the right run higher by {gap} on "
        "average (95% interval {low} to {high}); if the two runs did not differ, a shift at "
        "least this one-sided would arise by chance in {share} of comparisons (p = {p}, "
        "Wilcoxon signed-rank test; {p_holm} after Holm's correction)."
    ),
    "fact.chance.worse": "{check} got worse beyond chance: p = {p_holm} after Holm's correction.",
    "fact.chance.better": (
        "{check} got better beyond chance: p = {p_holm} after Holm's correction."
    ),
    "fact.chance.beyond": (
        "{check} differs between the two runs beyond chance: p = {p_holm} after Holm's correction."
    ),
    "fact.chance.none": "No check differs beyond chance after Holm's correction.",
    "fact.chance.case.fisher": (
        "{where}: samples at least this different would arise by chance in {share} of "
        "comparisons (p = {p}, Fisher's exact test, this case alone, not corrected across "
        "cases)."
    ),
    "fact.chance.case.mann_whitney": (
        "{where}: samples at least this different would arise by chance in {share} of "
        "comparisons (p = {p}, Mann–Whitney U test, this case alone, not corrected across "
        "cases)."
    ),
}
FEW = {
    "verdicts": (
        " Too few verdicts changed for any split to be beyond chance at 0.05: that takes at "
        "least {fewest}, all one way."
    ),
    "scores": (
        " Too few scores changed for any shift to be beyond chance at 0.05: that takes at least "
        "{fewest}."
    ),
}
"""What a test of too few changes could never show, said after what it found."""
