"""The words a report adds to the site's pages, in English and in Italian (identical keys), with
the glossary's terms (``generator/reading/locales/GLOSSARY.md``)."""

from __future__ import annotations

EN: dict[str, str] = {
    "report.name": "Report",
    "report.redacted.run": "Made from the redacted run only.",
    "report.redacted.runs": "Made from the redacted runs only.",
    "report.disclosure.none": "Beyond ids, names, scores, statuses and counts, nothing was published.",
    "report.disclosure": (
        "Beyond ids, names, scores, statuses and counts, the team that keeps these runs chose to "
        "publish {released}"
    ),
    "report.withheld_below": "What it does not show is listed at the end.",
    "report.status.worse.previous": "worse than the previous run",
    "report.verdict": "Overall: {status}.",
    "summary.worse": "Checks that got worse",
    "summary.none_worse": "No check got worse.",
    "summary.not_passed": "Checks that failed or could not be judged",
    "summary.all_passed": "Every check passed.",
    "summary.run_page": "This run on the site",
    "summary.board_page": "The board on the site",
    "summary.diff_page": "This comparison on the site",
    "summary.cut.one": "One more row left out: GitHub takes a comment of at most {limit} characters.",
    "summary.cut.other": "{count} more rows left out: GitHub takes a comment of at most {limit} characters.",
}

IT: dict[str, str] = {
    "report.name": "Rapporto",
    "report.redacted.run": "Ricavato soltanto dalla versione oscurata dell'esecuzione.",
    "report.redacted.runs": "Ricavato soltanto dalla versione oscurata delle esecuzioni.",
    "report.disclosure.none": (
        "Oltre a identificativi, nomi, punteggi, esiti e conteggi, non è stato pubblicato nulla."
    ),
    "report.disclosure": (
        "Oltre a identificativi, nomi, punteggi, esiti e conteggi, chi conserva queste "
        "esecuzioni ha scelto di pubblicare {released}"
    ),
    "report.withheld_below": "Che cosa non mostra è elencato alla fine.",
    "report.status.worse.previous": "peggiorata rispetto all'esecuzione precedente",
    "report.verdict": "Nel complesso: esecuzione {status}.",
    "summary.worse": "Controlli peggiorati",
    "summary.none_worse": "Nessun controllo è peggiorato.",
    "summary.not_passed": "Controlli non superati o non giudicati",
    "summary.all_passed": "Ogni controllo è stato superato.",
    "summary.run_page": "Questa esecuzione sul sito",
    "summary.board_page": "I sistemi valutati a confronto sul sito",
    "summary.diff_page": "Questo confronto sul sito",
    "summary.cut.one": "Un'altra riga omessa: GitHub accetta commenti di al massimo {limit} caratteri.",
    "summary.cut.other": "Altre {count} righe omesse: GitHub accetta commenti di al massimo {limit} caratteri.",
}

REPORT: dict[str, dict[str, str]] = {"en": EN, "it": IT}
