"""Every label the site's own pages print, in English and in Italian (identical keys).

The readings bring their own sentences; these are the words around them: headings, legends,
notes, what a page withholds, the footer's credit. The names of statuses, verdicts, columns and
chart parts are ``terms``, which every output shares; ``LABELS`` holds both, as a page reads
them. Figures are not labels: a page writes them with ``generator.reading.formats``, as its
language writes them. Each idea has one word in each language, the one
``generator/reading/locales/GLOSSARY.md`` gives, here and in the reading alike.
"""

from __future__ import annotations

from generator.site import terms

EN: dict[str, str] = {
    "site.home": "Home",
    "site.suites": "Suites",
    "scheme.to_dark": "Switch to the dark scheme",
    "scheme.to_light": "Switch to the light scheme",
    "home.title": "Evaluation runs",
    "home.suites": "Suites",
    "home.latest": "Latest runs",
    "home.empty": "The archive holds no run yet.",
    "missing.title": "No page here",
    "missing.said": (
        "This site has no page at this address. A run's page stays where it was published, so "
        "the address may be mistyped or from another site; the home page leads to every suite, "
        "and the search finds runs, suites and cases."
    ),
    "missing.home": "Go to the home page",
    "suite.history": "History of each check",
    "suite.runs": "Runs, newest first",
    "suite.reference": "Reference run",
    "suite.no_reference": "This suite has no reference run.",
    "toc.title": "On this page",
    "first.worse.one": "{count} check got worse than the reference run",
    "first.worse.other": "{count} checks got worse than the reference run",
    "first.on_cases.one": "{check} on {count} case",
    "first.on_cases.other": "{check} on {count} cases",
    "first.whole_run": "{check} on the whole run",
    "first.checks.failed": "Checks that failed:",
    "first.cases.failed": "Cases that failed:",
    "first.checks.unjudged": "Checks not judged:",
    "first.cases.unjudged": "Cases not judged:",
    "first.all_passed": "Every check passed on every case.",
    "first.more.one": "and {count} more",
    "first.more.other": "and {count} more",
    "first.rows.worse": "Got worse:",
    "first.rows.unjudged": "Not judged:",
    "first.none_worse": "No check got worse.",
    "run.facts": "About this run",
    "run.reading": "Reading",
    "run.checks": "Checks",
    "run.intervals": "Sampled checks against their thresholds",
    "run.cases": "Cases",
    "run.withheld": "What this page does not show",
    "run.released": "Released by the disclosure",
    "run.released.none": "Nothing beyond what always travels.",
    "run.against_previous": "Against the previous run",
    "run.against_reference": "Against the reference run",
    "run.is_reference": "This run is the suite's reference.",
    "run.no_previous": "This is the suite's first run.",
    "diff.title.previous": "{suite} at {run}, against the previous run",
    "diff.title.reference": "{suite} at {run}, against the reference run",
    "diff.title.both": "{suite} at {run}, against the previous run, which is the reference",
    "diff.this_run": "This run",
    "diff.role.previous": "Previous run",
    "diff.role.reference": "Reference run",
    "diff.role.both": "Previous run, the reference",
    "diff.checks": "Check by check",
    "diff.legend": "Each run's score, and the range of its samples where it was sampled; ◐ on the line.",
    "diff.only_changed": "Only the checks that changed",
    "diff.nothing_changed": "No check changed: every one is within its tolerance.",
    "run.no_case_shown": "No case has a check that failed or could not be judged.",
    "diff.charts": "Both runs' samples, check by check",
    "board.title": "{suite}: targets side by side",
    "board.link": "Targets side by side",
    "board.rules": "rules",
    "board.legend": (
        "The latest run of each target of this suite that follows the rules of its newest run. "
        "Each check's best target is the one that passed the most of its cases; each other "
        "target is tested against it over the cases both judged (exact McNemar test), with "
        "Holm's correction across the targets: tied where the gap could be chance."
    ),
    "board.targets": "Targets",
    "board.target": "Target",
    "board.cost": "Cost per case",
    "board.latency": "Median latency",
    "board.pareto": "no other target passes as much for less, or more for as little",
    "board.chart": "Pass rate against cost per case",
    "board.log": "each mark ten times the last",
    "board.mean": "mean {score}",
    "board.cases.order": "In each cell, a mark for each check, in this order: {checks}.",
    "board.checks": "Check by check",
    "board.checks.legend": (
        "Each target's pass rate on the check, with its Wilson 95% interval; its mean score, "
        "with its Student's t 95% interval; p against the check's best, and in brackets after "
        "Holm's correction."
    ),
    "board.standing.best": "best",
    "board.best_or_tied": "Best, or tied with the best, on",
    "board.standing.tied": "tied with the best",
    "board.standing.behind": "behind the best, beyond chance",
    "board.standing.unpaired": "no case in common with the best",
    "board.cases": "Case by case",
    "board.cases.differ.one": "{count} case where the targets' verdicts differ comes first; each cell opens the case in that target's run.",
    "board.cases.differ.other": "{count} cases where the targets' verdicts differ come first; each cell opens the case in that target's run.",
    "board.apart": "Targets whose latest run follows other rules (not compared)",
    "run.checks.intervals": (
        "Across the cases: the pass rate with its Wilson 95% interval, the mean score with its "
        "Student's t 95% interval; a standard error Inspect reported is shown as Inspect "
        "reported it."
    ),
    "diff.chance": "Beyond chance? Check by check",
    "diff.chance.legend": (
        "Each check over the cases both runs judged: how many went from passing to failing (↓) "
        "and back (↑), with the exact McNemar test's p; the mean change of score with its 95% "
        "interval, drawn on a scale from −1 to +1, with the Wilcoxon signed-rank test's p. In "
        "brackets, p after Holm's correction across the checks; below 0.05 is beyond chance."
    ),
    "diff.refused": "These two runs cannot be compared: {reason}",
    "fact.tenant": "Tenant",
    "fact.suite": "Suite",
    "fact.environment": "Environment",
    "fact.created_at": "Measured on",
    "fact.commit": "Commit",
    "fact.no_commit": "not in a git repository",
    "fact.schema": "Schema",
    "fact.config_hash": "Rules (config hash)",
    "fact.target": "Target",
    "fact.judge": "Judge",
    "fact.rejudged_from": "Answers judged again from",
    "fact.key": "Run key",
    "fact.usage": "Calls and cost",
    "fact.cost_partial": "at least {money}: not every call reported its cost",
    "fact.none": "none declared",
    "withheld.responses.one": "{count} recorded answer: what the model said and what it was asked",
    "withheld.responses.other": "{count} recorded answers: what the model said and what it was asked",
    "withheld.reasons.one": "the reason given for {count} verdict",
    "withheld.reasons.other": "the reasons given for {count} verdicts",
    "withheld.set_aside.one": "why {count} case was set aside",
    "withheld.set_aside.other": "why {count} cases were set aside",
    "withheld.arguments": "tool arguments and results",
    "withheld.artifacts.one": "the text of {count} file under test",
    "withheld.artifacts.other": "the text of {count} files under test",
    "withheld.config": "configuration values: {names}",
    "withheld.metadata.one": "{count} run annotation",
    "withheld.metadata.other": "{count} run annotations",
    "withheld.tool_names": "tool names, each shown by its number (tool #1)",
    "released.run_metadata": "run annotations: {names}",
    "released.score_metadata": "check details: {names}",
    "released.artifacts": "files under test: {names}",
    "released.tool_names.all": "every tool's name",
    "released.tool_names": "tool names: {names}",
    "home.trend.one": "Pass rate over the last run",
    "home.trend.other": "Pass rate over the last {count} runs",
    "suite.cases": "Cases in the latest runs",
    "suite.cases_legend": "Newest run first, its time in UTC; ✓ every check passed, ✗ one failed, ? one could not be judged, – set aside. A case that went both ways between runs of the same target and rules is marked flaky.",
    "suite.flaky": "flaky",
    "where.run": "the whole run",
    "suite.rate": "Pass rate of each run",
    "suite.older": "Older runs",
    "suite.older.note.one": (
        "This page shows the latest run. Every run of the suite is also on one of these pages, "
        "{block} to a page, in the order they arrived:"
    ),
    "suite.older.note.other": (
        "This page shows the latest {count} runs. Every run of the suite is also on one of these "
        "pages, {block} to a page, in the order they arrived:"
    ),
    "older.runs": "Runs {first}–{last}",
    "older.span": "measured from {start} to {end}",
    "older.title": "{suite} · runs {first}–{last}",
    "older.after": "Newer runs, on the suite's page",
    "run.trajectories": "Trajectories",
    "trajectory.title": "Trajectory {number}",
    "trajectory.answers.one": "{count} answer",
    "trajectory.answers.other": "{count} answers",
    "trajectory.latency.single": "latency {latency}",
    "trajectory.latency": "latency {median} (from {low} to {high})",
    "trajectory.tokens": "median tokens: {input} in, {output} out",
    "trajectory.judged": "Judged by the trajectory checks:",
    "trajectory.passed_on": "passed on {cases}",
    "run.each_case": "Each case",
    "run.each_case.note": "A case opens on its verdicts and the trajectories its answers took; a cell of the grid leads to its case.",
    "case.verdicts": "Its verdicts",
    "case.every_answer": "every answer",
    "case.answers": "answers {answers}",
    "case.history": "Its history in the latest runs of the suite",
    "cases.title": "The cases of {suite}",
    "cases.count.one": "{count} case",
    "cases.count.other": "{count} cases",
    "cases.runs.one": "{count} run",
    "cases.runs.other": "{count} runs",
    "cases.note": (
        "Each case, with its verdict in its latest run, opens on its verdict in each of these runs "
        "that measured it; the suite's page leads to its older runs."
    ),
    "case.legend": (
        "Newest run first, each a link to the case on that run's page: its verdict, then each "
        "check's (✓ passed, ✗ failed, ? not judged, • measured on a scale of its own); "
        "★ the reference run."
    ),
    "case.runs.passed.one": "passed in {count} run",
    "case.runs.passed.other": "passed in {count} runs",
    "case.runs.failed.one": "failed in {count} run",
    "case.runs.failed.other": "failed in {count} runs",
    "case.runs.unjudged.one": "not judged in {count} run",
    "case.runs.unjudged.other": "not judged in {count} runs",
    "case.runs.set_aside.one": "set aside in {count} run",
    "case.runs.set_aside.other": "set aside in {count} runs",
    "trajectory.failed_on": "failed on {cases}",
    "trajectory.errored_on": "not judged on {cases}",
    "trajectory.all": "Taken by every answer of every case.",
    "trajectory.every": "Taken by every answer of:",
    "trajectory.some": "Taken by these answers:",
    "run.legend": "Each cell: the check's score, and ✓ passed, ✗ failed, ? not judged, • measured on a scale of its own and not judged; – a case set aside; ◐ on the line.",
    "run.only_failed": "Only the cases with a check that failed or could not be judged",
    "run.by_check": "Those of one check:",
    "run.every_check": "every check",
    "run.line_marked": "The checks on the line are marked ◐ in the table of cases.",
    # Material's footer credits the theme in English whatever the language ("Made with …" is
    # written into its partials/copyright.html, outside its language packs).
    "footer.made_with": "Made with {theme}",
}

IT: dict[str, str] = {
    "site.home": "Inizio",
    "site.suites": "Suite",
    "scheme.to_dark": "Passa ai colori scuri",
    "scheme.to_light": "Passa ai colori chiari",
    "home.title": "Esecuzioni delle valutazioni",
    "home.suites": "Suite",
    "home.latest": "Ultime esecuzioni",
    "home.empty": "L'archivio non contiene ancora esecuzioni.",
    "missing.title": "Nessuna pagina qui",
    "missing.said": (
        "Questo sito non ha una pagina a questo indirizzo. La pagina di un'esecuzione resta dove "
        "è stata pubblicata, quindi l'indirizzo potrebbe essere sbagliato o di un altro sito; la "
        "pagina iniziale porta a ogni suite, e la ricerca trova esecuzioni, suite e casi."
    ),
    "missing.home": "Vai alla pagina iniziale",
    "suite.history": "Andamento di ogni controllo",
    "suite.runs": "Esecuzioni, dalla più recente",
    "suite.reference": "Esecuzione di riferimento",
    "suite.no_reference": "Questa suite non ha un'esecuzione di riferimento.",
    "toc.title": "In questa pagina",
    "first.worse.one": "{count} controllo è peggiorato rispetto all'esecuzione di riferimento",
    "first.worse.other": "{count} controlli sono peggiorati rispetto all'esecuzione di riferimento",
    "first.on_cases.one": "{check} su {count} caso",
    "first.on_cases.other": "{check} su {count} casi",
    "first.whole_run": "{check} sull'intera esecuzione",
    "first.checks.failed": "Controlli non superati:",
    "first.cases.failed": "Casi non superati:",
    "first.checks.unjudged": "Controlli non giudicati:",
    "first.cases.unjudged": "Casi non giudicati:",
    "first.all_passed": "Ogni controllo è stato superato su ogni caso.",
    "first.more.one": "e {count} altro",
    "first.more.other": "e altri {count}",
    "first.rows.worse": "Peggiorati:",
    "first.rows.unjudged": "Non giudicati:",
    "first.none_worse": "Nessun controllo è peggiorato.",
    "run.facts": "Questa esecuzione",
    "run.reading": "Lettura",
    "run.checks": "Controlli",
    "run.intervals": "Controlli campionati rispetto alle soglie",
    "run.cases": "Casi",
    "run.withheld": "Che cosa questa pagina non mostra",
    "run.released": "Reso pubblico per scelta dichiarata",
    "run.released.none": "Nulla oltre a ciò che è sempre pubblico.",
    "run.against_previous": "Rispetto all'esecuzione precedente",
    "run.against_reference": "Rispetto all'esecuzione di riferimento",
    "run.is_reference": "Questa è l'esecuzione di riferimento della suite.",
    "run.no_previous": "Questa è la prima esecuzione della suite.",
    "diff.title.previous": "{suite} del {run}, rispetto all'esecuzione precedente",
    "diff.title.reference": "{suite} del {run}, rispetto all'esecuzione di riferimento",
    "diff.title.both": "{suite} del {run}, rispetto all'esecuzione precedente, che è quella di riferimento",
    "diff.this_run": "Questa esecuzione",
    "diff.role.previous": "Esecuzione precedente",
    "diff.role.reference": "Esecuzione di riferimento",
    "diff.role.both": "Esecuzione precedente, di riferimento",
    "diff.checks": "Controllo per controllo",
    "diff.legend": "Il punteggio di ogni esecuzione e, dove è stato campionato, l'intervallo dei campioni; ◐ sul filo.",
    "diff.only_changed": "Solo i controlli cambiati",
    "diff.nothing_changed": "Nessun controllo è cambiato: ognuno è entro la sua tolleranza.",
    "run.no_case_shown": "Nessun caso ha un controllo non superato o non giudicato.",
    "diff.charts": "I campioni delle due esecuzioni, controllo per controllo",
    "board.title": "{suite}: i sistemi valutati a confronto",
    "board.link": "I sistemi valutati a confronto",
    "board.rules": "regole",
    "board.legend": (
        "L'ultima esecuzione di ogni sistema valutato di questa suite che segue le regole della "
        "sua esecuzione più recente. Il sistema migliore di un controllo è quello che ne ha "
        "superato più casi; ogni altro sistema è confrontato con esso sui casi "
        "giudicati da entrambi (test esatto di McNemar), con la correzione di Holm tra i "
        "sistemi: alla pari dove il divario potrebbe essere caso."
    ),
    "board.targets": "Sistemi valutati",
    "board.target": "Sistema valutato",
    "board.cost": "Costo per caso",
    "board.latency": "Latenza mediana",
    "board.pareto": "nessun altro sistema valutato supera altrettanto spendendo meno, o di più spendendo altrettanto",
    "board.chart": "Quota di superati rispetto al costo per caso",
    "board.log": "ogni tacca dieci volte la precedente",
    "board.mean": "media {score}",
    "board.cases.order": "In ogni cella, un segno per ciascun controllo, in quest'ordine: {checks}.",
    "board.checks": "Controllo per controllo",
    "board.checks.legend": (
        "La quota di superati di ogni sistema valutato nel controllo, con il suo intervallo di "
        "Wilson al 95%; il suo punteggio medio, con l'intervallo t di Student al 95%; la p "
        "rispetto al migliore del controllo e, tra parentesi, dopo la correzione di Holm."
    ),
    "board.standing.best": "il migliore",
    "board.best_or_tied": "Migliore, o alla pari con il migliore, in",
    "board.standing.tied": "alla pari con il migliore",
    "board.standing.behind": "dietro il migliore, non per caso",
    "board.standing.unpaired": "nessun caso in comune con il migliore",
    "board.cases": "Caso per caso",
    "board.cases.differ.one": "{count} caso in cui gli esiti dei sistemi valutati differiscono viene per primo; ogni cella apre il caso nell'esecuzione di quel sistema.",
    "board.cases.differ.other": "{count} casi in cui gli esiti dei sistemi valutati differiscono vengono per primi; ogni cella apre il caso nell'esecuzione di quel sistema.",
    "board.apart": "Sistemi valutati la cui ultima esecuzione segue altre regole (non confrontati)",
    "run.checks.intervals": (
        "Sui casi: la quota di superati con il suo intervallo di Wilson al 95%, il punteggio "
        "medio con il suo intervallo t di Student al 95%; l'errore standard riportato da "
        "Inspect è mostrato come Inspect lo ha riportato."
    ),
    "diff.chance": "Oltre il caso? Controllo per controllo",
    "diff.chance.legend": (
        "Ogni controllo sui casi giudicati in entrambe le esecuzioni: quanti sono passati da "
        "superati a non superati (↓) e il contrario (↑), con la p del test esatto di McNemar; la "
        "variazione media del punteggio con il suo intervallo al 95%, disegnata su una scala da "
        "−1 a +1, con la p del test dei ranghi con segno di Wilcoxon. Tra parentesi, la p dopo "
        "la correzione di Holm tra i controlli; sotto 0,05 è oltre il caso."
    ),
    "diff.refused": "Queste due esecuzioni non sono confrontabili: {reason}",
    "fact.tenant": "Cliente",
    "fact.suite": "Suite",
    "fact.environment": "Ambiente",
    "fact.created_at": "Misurata il",
    "fact.commit": "Commit",
    "fact.no_commit": "fuori da un repository git",
    "fact.schema": "Schema",
    "fact.config_hash": "Regole (hash della configurazione)",
    "fact.target": "Sistema valutato",
    "fact.judge": "Giudice",
    "fact.rejudged_from": "Risposte riprese dall'esecuzione",
    "fact.key": "Chiave dell'esecuzione",
    "fact.usage": "Chiamate e costo",
    "fact.cost_partial": "almeno {money}: non tutte le chiamate hanno riportato il proprio costo",
    "fact.none": "nessuna impostazione dichiarata",
    "withheld.responses.one": "{count} risposta registrata: che cosa ha detto il modello e che cosa gli è stato chiesto",
    "withheld.responses.other": "{count} risposte registrate: che cosa ha detto il modello e che cosa gli è stato chiesto",
    "withheld.reasons.one": "la motivazione di {count} verdetto",
    "withheld.reasons.other": "le motivazioni di {count} verdetti",
    "withheld.set_aside.one": "il motivo per cui {count} caso è stato messo da parte",
    "withheld.set_aside.other": "il motivo per cui {count} casi sono stati messi da parte",
    "withheld.arguments": "argomenti e risultati degli strumenti",
    "withheld.artifacts.one": "il testo di {count} file in esame",
    "withheld.artifacts.other": "il testo di {count} file in esame",
    "withheld.config": "valori di configurazione: {names}",
    "withheld.metadata.one": "{count} annotazione dell'esecuzione",
    "withheld.metadata.other": "{count} annotazioni dell'esecuzione",
    "withheld.tool_names": "i nomi degli strumenti, ciascuno mostrato con il suo numero (tool #1)",
    "released.run_metadata": "annotazioni dell'esecuzione: {names}",
    "released.score_metadata": "dettagli dei controlli: {names}",
    "released.artifacts": "file in esame: {names}",
    "released.tool_names.all": "il nome di ogni strumento",
    "released.tool_names": "nomi degli strumenti: {names}",
    "home.trend.one": "Controlli superati nell'ultima esecuzione",
    "home.trend.other": "Controlli superati nelle ultime {count} esecuzioni",
    "suite.cases": "I casi nelle ultime esecuzioni",
    "suite.cases_legend": "Dalla più recente, con l'ora in UTC; ✓ ogni controllo superato, ✗ uno non superato, ? uno non giudicato, – messo da parte. Un caso andato in entrambi i modi tra esecuzioni dello stesso sistema valutato con le stesse regole è segnato come instabile.",
    "suite.flaky": "instabile",
    "where.run": "l'intera esecuzione",
    "suite.rate": "Quota di superati di ogni esecuzione",
    "suite.older": "Esecuzioni precedenti",
    "suite.older.note.one": (
        "Questa pagina mostra l'ultima esecuzione. Ogni esecuzione della suite è anche in una di "
        "queste pagine, {block} per pagina, nell'ordine in cui sono arrivate:"
    ),
    "suite.older.note.other": (
        "Questa pagina mostra le ultime {count} esecuzioni. Ogni esecuzione della suite è anche "
        "in una di queste pagine, {block} per pagina, nell'ordine in cui sono arrivate:"
    ),
    "older.runs": "Esecuzioni {first}–{last}",
    "older.span": "misurate nel periodo {start} – {end}",
    "older.title": "{suite} · esecuzioni {first}–{last}",
    "older.after": "Esecuzioni successive, nella pagina della suite",
    "run.trajectories": "Traiettorie",
    "trajectory.title": "Traiettoria {number}",
    "trajectory.answers.one": "{count} risposta",
    "trajectory.answers.other": "{count} risposte",
    "trajectory.latency.single": "latenza {latency}",
    "trajectory.latency": "latenza {median} (da {low} a {high})",
    "trajectory.tokens": "token mediani: {input} in ingresso, {output} in uscita",
    "trajectory.judged": "Giudicata dai controlli della traiettoria:",
    "trajectory.passed_on": "superato su {cases}",
    "run.each_case": "Ogni caso",
    "run.each_case.note": "Un caso si apre sui suoi verdetti e sulle traiettorie seguite dalle sue risposte; una cella della griglia porta al suo caso.",
    "case.verdicts": "I suoi verdetti",
    "case.every_answer": "ogni risposta",
    "case.answers": "risposte {answers}",
    "case.history": "La sua storia nelle ultime esecuzioni della suite",
    "cases.title": "I casi di {suite}",
    "cases.count.one": "{count} caso",
    "cases.count.other": "{count} casi",
    "cases.runs.one": "{count} esecuzione",
    "cases.runs.other": "{count} esecuzioni",
    "cases.note": (
        "Ogni caso, con il suo verdetto nell'ultima esecuzione, si apre sul suo verdetto in "
        "ciascuna di queste esecuzioni che lo ha misurato; la pagina della suite porta alle sue "
        "esecuzioni precedenti."
    ),
    "case.legend": (
        "Dalla più recente, ognuna un collegamento al caso nella pagina di quell'esecuzione: il "
        "suo verdetto, poi quello di ogni controllo (✓ superato, ✗ non superato, ? non "
        "giudicato, • misurato su una scala propria); ★ l'esecuzione di riferimento."
    ),
    "case.runs.passed.one": "superato in {count} esecuzione",
    "case.runs.passed.other": "superato in {count} esecuzioni",
    "case.runs.failed.one": "non superato in {count} esecuzione",
    "case.runs.failed.other": "non superato in {count} esecuzioni",
    "case.runs.unjudged.one": "non giudicato in {count} esecuzione",
    "case.runs.unjudged.other": "non giudicato in {count} esecuzioni",
    "case.runs.set_aside.one": "messo da parte in {count} esecuzione",
    "case.runs.set_aside.other": "messo da parte in {count} esecuzioni",
    "trajectory.failed_on": "non superato su {cases}",
    "trajectory.errored_on": "non giudicato su {cases}",
    "trajectory.all": "Seguita da tutte le risposte di ogni caso.",
    "trajectory.every": "Seguita da tutte le risposte di:",
    "trajectory.some": "Seguita da queste risposte:",
    "run.legend": "In ogni cella: il punteggio del controllo, e ✓ superato, ✗ non superato, ? non giudicato, • misurato su una scala propria e non giudicato; – un caso messo da parte; ◐ sul filo.",
    "run.only_failed": "Solo i casi con un controllo non superato o non giudicato",
    "run.by_check": "Quelli di un controllo:",
    "run.every_check": "ogni controllo",
    "run.line_marked": "I controlli sul filo sono segnati con ◐ nella tabella dei casi.",
    "footer.made_with": "Realizzato con {theme}",
}

LABELS: dict[str, dict[str, str]] = {"en": EN | terms.EN, "it": IT | terms.IT}
LOCALES = ("en", "it")
