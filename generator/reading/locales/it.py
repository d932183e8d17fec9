"""Italiano: ogni frase della lettura, scritta per chi non legge il codice.

Placeholders keep the English order, so the numbers of two readings line up one to one. The
words for each idea are the glossary's (``GLOSSARY.md`` beside this file).
"""

from __future__ import annotations

PHRASES: dict[str, str] = {
    "title.run": "Lettura dell'esecuzione {run}",
    "title.reference": "Esecuzione {run} letta rispetto al riferimento {reference}",
    "title.diff": "Le esecuzioni {left} e {right}, una accanto all'altra",
    "heading.ran": "L'esecuzione in cifre",
    "heading.setup": "Condizioni della misura",
    "heading.found": "Non superati, non giudicati, messi da parte",
    "heading.underneath": "Differenze nelle condizioni",
    "heading.moved": "Controllo per controllo, rispetto al riferimento",
    "heading.samples": "Che cosa mostrano i campioni",
    "heading.head": "Sintesi delle due esecuzioni",
    "heading.checks": "Controllo per controllo",
    "nothing": "Niente da segnalare.",
    "where.case": "{check} sul caso {case}",
    "where.run": "{check} sull'intera esecuzione",
    # L'esecuzione in cifre
    "fact.tally.judge_changed": (
        "Il giudice non è quello con cui è stato valutato il riferimento: questi punteggi non "
        "sono confrontabili con i suoi."
    ),
    "fact.tally.rejudged": (
        "I punteggi vengono dal giudizio delle risposte registrate dall'esecuzione {source}; "
        "non è stata raccolta alcuna risposta nuova."
    ),
    "fact.tally.cases.one": "L'esecuzione comprende {count} caso.",
    "fact.tally.cases.other": "L'esecuzione comprende {count} casi.",
    "fact.tally.suspended.one": "Di questi, {count} è stato messo da parte e non è stato misurato.",
    "fact.tally.suspended.other": (
        "Di questi, {count} sono stati messi da parte e non sono stati misurati."
    ),
    "fact.tally.checks.one": (
        "È stato eseguito {count} controllo: superati {passed}, non superati {failed}."
    ),
    "fact.tally.checks.other": (
        "Sono stati eseguiti {count} controlli: superati {passed}, non superati {failed}."
    ),
    "fact.tally.measured.one": (
        "{count} controllo misurato su una scala propria, senza una soglia dichiarata con cui "
        "giudicarlo: non conta né come superato né come non superato."
    ),
    "fact.tally.measured.other": (
        "{count} controlli misurati su una scala propria, senza una soglia dichiarata con cui "
        "giudicarli: non contano né come superati né come non superati."
    ),
    "fact.tally.unjudged.one": (
        "{count} controllo non è stato giudicato: su quel punto l'esecuzione non dice nulla."
    ),
    "fact.tally.unjudged.other": (
        "{count} controlli non sono stati giudicati: su quei punti l'esecuzione non dice nulla."
    ),
    "fact.tally.nothing_judged": "Nessun controllo ha prodotto un punteggio.",
    "fact.tally.calibration.one": (
        "{count} controllo di taratura è uscito dalla banda fissata per il suo giudice: la "
        "scala del giudice non è quella su cui era stato tarato."
    ),
    "fact.tally.calibration.other": (
        "{count} controlli di taratura sono usciti dalle bande fissate per il loro giudice: la "
        "scala del giudice non è quella su cui era stato tarato."
    ),
    "fact.tally.on_the_line.one": (
        "{count} controllo è sul filo: i suoi campioni stanno a cavallo della soglia, quindi "
        "l'esito dipende da quali campioni sono capitati."
    ),
    "fact.tally.on_the_line.other": (
        "{count} controlli sono sul filo: i loro campioni stanno a cavallo della soglia, quindi "
        "l'esito dipende da quali campioni sono capitati."
    ),
    "fact.tally.moved": (
        "Rispetto al riferimento: peggiorati {regressed}, non giudicati in una delle due "
        "esecuzioni o in entrambe {errored}, nuovi {new}, scomparsi {missing}, migliorati "
        "{improved}, invariati {unchanged}."
    ),
    "fact.tally.denominator_moved.one": (
        "{count} controllo sull'intera esecuzione ha contato un numero di casi diverso da "
        "quello del riferimento, e il suo punteggio non viene mai letto come invariato."
    ),
    "fact.tally.denominator_moved.other": (
        "{count} controlli sull'intera esecuzione hanno contato un numero di casi diverso da "
        "quello del riferimento, e i loro punteggi non vengono mai letti come invariati."
    ),
    "fact.tally.within_noise.one": (
        "{count} controllo si è spostato meno del margine di rumore del riferimento."
    ),
    "fact.tally.within_noise.other": (
        "{count} controlli si sono spostati meno del margine di rumore del riferimento."
    ),
    "fact.tally.nothing_paired": (
        "Nessun controllo di un'esecuzione si abbina a un controllo dell'altra: non è stato "
        "confrontato nulla, e nulla si può dire migliorato o peggiorato."
    ),
    "fact.tally.unpaired.one": (
        "{count} verdetto delle due esecuzioni non si abbina a nessun verdetto dell'altra: "
        "{identity} perché le due esecuzioni danno al suo controllo identità diverse "
        "(assertion_id), {rules} perché le regole sono diverse, {cases} perché il suo caso è "
        "in una sola esecuzione."
    ),
    "fact.tally.unpaired.other": (
        "{count} verdetti delle due esecuzioni non si abbinano a nessun verdetto dell'altra: "
        "{identity} perché le due esecuzioni danno al controllo identità diverse "
        "(assertion_id), {rules} perché le regole sono diverse, {cases} perché il loro caso è "
        "in una sola esecuzione."
    ),
    "fact.check.unpaired.identity": (
        "Il controllo {check} è in entrambe le esecuzioni con identità diverse (assertion_id), "
        "quindi nessuno dei suoi verdetti si abbina: le due esecuzioni identificano i controlli "
        "con regole diverse."
    ),
    "fact.tally.rules.same": (
        "Le regole (controlli, soglie, tolleranze, campioni) sono quelle del riferimento."
    ),
    "fact.tally.rules.changed": (
        "Le regole (controlli, soglie, tolleranze, campioni) non sono quelle del riferimento."
    ),
    "fact.tally.unpriced.target": (
        "Non tutte le chiamate al sistema valutato hanno riportato il proprio costo: i {spent} "
        "registrati contano soltanto quelle che lo hanno fatto."
    ),
    "fact.tally.unpriced.judge": (
        "Non tutte le chiamate al giudice hanno riportato il proprio costo: i {spent} "
        "registrati contano soltanto quelle che lo hanno fatto."
    ),
    "fact.tally.cost_unknown.target": (
        "Quanto siano costate le chiamate al sistema valutato non si sa: non tutte hanno "
        "riportato il proprio costo, e nessun costo registrato è sopra lo zero."
    ),
    "fact.tally.cost_unknown.judge": (
        "Quanto siano costate le chiamate al giudice non si sa: non tutte hanno riportato il "
        "proprio costo, e nessun costo registrato è sopra lo zero."
    ),
    # Condizioni della misura
    "fact.setup.run": "Suite {suite}, ambiente {environment}, misurata il {created_at}.",
    "fact.setup.commit": "Codice al commit {commit}.",
    "fact.setup.commit.dirty": (
        "Codice al commit {commit}, con modifiche non registrate in un commit: il codice "
        "misurato non coincide esattamente con quel commit."
    ),
    "fact.setup.commit.none": (
        "Nessun commit registrato: la suite non si trovava in un repository git."
    ),
    "fact.setup.projected": "In questa esecuzione i nomi sono sostituiti da token.",
    "fact.setup.target.none": "Le impostazioni del sistema valutato non sono state dichiarate.",
    "fact.setup.target.identity": "Sistema valutato: {identity}.",
    "fact.setup.target.value": "Impostazione {name} del sistema valutato: {value}.",
    "fact.setup.judge.none": "Nessuna impostazione del giudice è stata dichiarata.",
    "fact.setup.judge.identity": "Giudice: {identity}.",
    "fact.setup.judge.value": "Impostazione {name} del giudice: {value}.",
    "fact.setup.withheld.target": (
        "L'impostazione {name} del sistema valutato è riservata: questo documento non la riporta."
    ),
    "fact.setup.withheld.judge": (
        "L'impostazione {name} del giudice è riservata: questo documento non la riporta."
    ),
    "fact.setup.artifact": "File in esame: {path}.",
    "fact.setup.spent.target": "Chiamate al sistema valutato: {calls}, per un costo di {spent}.",
    "fact.setup.spent.judge": "Chiamate al giudice: {calls}, per un costo di {spent}.",
    "fact.setup.calls.target": (
        "Chiamate al sistema valutato: {calls}, di cui non si conosce per intero il costo."
    ),
    "fact.setup.calls.judge": (
        "Chiamate al giudice: {calls}, di cui non si conosce per intero il costo."
    ),
    # Differenze nelle condizioni
    "fact.setting.environment": (
        "L'ambiente non è lo stesso: {before} per il riferimento, {now} per questa esecuzione."
    ),
    "fact.setting.target.changed": (
        "L'impostazione {name} del sistema valutato è passata da {before} a {now}."
    ),
    "fact.setting.target.added": (
        "L'impostazione {name} del sistema valutato compare solo qui, con valore {now}."
    ),
    "fact.setting.target.removed": (
        "L'impostazione {name} del sistema valutato, {before} nel riferimento, qui manca."
    ),
    "fact.setting.target.unknown": (
        "L'impostazione {name} del sistema valutato è riservata in almeno una delle due "
        "esecuzioni: non si sa se sia cambiata."
    ),
    "fact.setting.judge.changed": "L'impostazione {name} del giudice è passata da {before} a {now}.",
    "fact.setting.judge.added": (
        "L'impostazione {name} del giudice compare solo qui, con valore {now}."
    ),
    "fact.setting.judge.removed": (
        "L'impostazione {name} del giudice, {before} nel riferimento, qui manca."
    ),
    "fact.setting.judge.unknown": (
        "L'impostazione {name} del giudice è riservata in almeno una delle due esecuzioni: non "
        "si sa se sia cambiata."
    ),
    "fact.setting.judge.identity.added": (
        "Il giudice {identity} ha valutato questa esecuzione ma non il riferimento."
    ),
    "fact.setting.judge.identity.removed": (
        "Il giudice {identity} ha valutato il riferimento ma non questa esecuzione."
    ),
    "fact.setting.threshold.raised": (
        "La soglia di {check} è salita da {before} a {now}: una regola più severa."
    ),
    "fact.setting.threshold.lowered": (
        "La soglia di {check} è scesa da {before} a {now}: una regola meno severa."
    ),
    "fact.setting.tolerance.narrowed": (
        "La tolleranza di {check} si è ristretta da {before} a {now}."
    ),
    "fact.setting.tolerance.widened": (
        "La tolleranza di {check} si è allargata da {before} a {now}."
    ),
    "fact.setting.samples": "Il numero di campioni di {check} è passato da {before} a {now}.",
    "fact.setting.rule.added": "Il controllo {check} è nuovo in queste regole.",
    "fact.setting.rule.removed": "Il controllo {check} non fa più parte delle regole.",
    "fact.setting.artifact.added": (
        "Il file {path} è in esame qui, mentre nel riferimento non c'era."
    ),
    "fact.setting.artifact.removed": (
        "Il file {path} era in esame nel riferimento, mentre qui non c'è."
    ),
    "fact.setting.artifact.changed": "Il contenuto del file {path} non è quello del riferimento.",
    "fact.setting.artifact.unknown": (
        "Il file {path} è riservato in almeno una delle due esecuzioni: non si sa se sia cambiato."
    ),
    # Controllo per controllo, rispetto al riferimento
    "fact.moved.overlap.one": (
        "Dei controlli che si sono spostati ({moved}), {count} lo ha fatto con gli intervalli "
        "campionati delle due esecuzioni sovrapposti: su quel controllo i campioni non "
        "distinguono le due esecuzioni."
    ),
    "fact.moved.overlap.other": (
        "Dei controlli che si sono spostati ({moved}), {count} lo hanno fatto con gli "
        "intervalli campionati delle due esecuzioni sovrapposti: su quei controlli i campioni "
        "non distinguono le due esecuzioni."
    ),
    "fact.check.overlap": (
        "{where}: il riferimento ha campionato da {before_low} a {before_high}, questa "
        "esecuzione da {now_low} a {now_high}."
    ),
    "fact.check.regressed.flip": (
        "{where} è passato da superato a non superato: da {before} a {now}, con soglia {threshold}."
    ),
    "fact.check.regressed": (
        "{where} è sceso da {before} a {now} ({delta}), più della sua tolleranza di {tolerance}."
    ),
    "fact.check.errored": "{where} non è stato giudicato.",
    "fact.check.errored.raised": (
        "{where} non è stato giudicato: il sistema valutato, o il codice che lo avvolge, ha "
        "prodotto un errore."
    ),
    "fact.check.errored.shape": (
        "{where} non è stato giudicato: il sistema valutato ha restituito qualcosa che non è "
        "una risposta."
    ),
    "fact.check.errored.now": "{where} non è stato giudicato in questa esecuzione.",
    "fact.check.errored.before": (
        "{where} non è stato giudicato nel riferimento, quindi il punteggio di questa "
        "esecuzione non ha termini di confronto."
    ),
    "fact.check.errored.both": (
        "{where} non è stato giudicato né nel riferimento né in questa esecuzione."
    ),
    "fact.check.calibration_missed": (
        "{where} ha ottenuto {score}, fuori dalla banda di taratura che va da {low} a {high}."
    ),
    "fact.check.new": (
        "{where} è nuovo: ha ottenuto {now} con soglia {threshold}, e nel riferimento non ha "
        "termini di confronto."
    ),
    "fact.check.new.error": "{where} è nuovo e non è stato giudicato.",
    "fact.check.missing": "{where} c'era nel riferimento e in questa esecuzione manca.",
    "fact.check.improved.flip": (
        "{where} è passato da non superato a superato: da {before} a {now}, con soglia {threshold}."
    ),
    "fact.check.improved": (
        "{where} è salito da {before} a {now} ({delta}), più della sua tolleranza di {tolerance}."
    ),
    "fact.check.unchanged": (
        "{where} si è spostato da {before} a {now} ({delta}), entro la sua tolleranza di "
        "{tolerance}."
    ),
    "fact.check.within_noise": (
        "{where} si è spostato da {before} a {now}, dentro il margine di rumore del "
        "riferimento, che va da {low} a {high}."
    ),
    "fact.check.denominator_moved.one": (
        "{where} è stato calcolato su {before} caso nel riferimento e su {now} qui."
    ),
    "fact.check.denominator_moved.other": (
        "{where} è stato calcolato su {before} casi nel riferimento e su {now} qui."
    ),
    # Non superati, non giudicati, messi da parte
    "fact.check.failed": "{where} non è stato superato: {score} con soglia {threshold}.",
    "fact.case.suspended": (
        "{case} non è stato misurato: il caso è stato messo da parte, e il motivo resta fuori "
        "da questo documento."
    ),
    # Che cosa mostrano i campioni
    "fact.check.on_the_line": (
        "{where} è sul filo: i suoi campioni vanno da {low} a {high}, alcuni sotto la soglia "
        "di {threshold}, altri pari o sopra."
    ),
    "fact.check.over_cap.one": (
        "{where}: {count} chiamata su {samples} oltre il tetto per chiamata di {cap}; è "
        "arrivata a {worst}."
    ),
    "fact.check.over_cap.other": (
        "{where}: {count} chiamate su {samples} oltre il tetto per chiamata di {cap}; la più "
        "cara è arrivata a {worst}."
    ),
    "fact.check.over_cap.at_cap.one": (
        "{where}: {count} chiamata su {samples} oltre il tetto per chiamata di {cap}; sta sul "
        "tetto stesso, più vicino di quanto i punteggi sappiano distinguere."
    ),
    "fact.check.over_cap.at_cap.other": (
        "{where}: {count} chiamate su {samples} oltre il tetto per chiamata di {cap}; la più "
        "cara sta sul tetto stesso, più vicino di quanto i punteggi sappiano distinguere."
    ),
    "fact.check.over_cap.unbounded.one": (
        "{where}: {count} chiamata su {samples} oltre il tetto per chiamata di {cap}; ha "
        "punteggio 0, che non permette di dare una cifra al suo costo."
    ),
    "fact.check.over_cap.unbounded.other": (
        "{where}: {count} chiamate su {samples} oltre il tetto per chiamata di {cap}; la più "
        "cara ha punteggio 0, che non permette di dare una cifra al suo costo."
    ),
    "fact.check.spread": (
        "{where}: i campioni del giudice vanno in tre direzioni: {zero} a 0, {partial} nel "
        "mezzo, {full} a 1."
    ),
    # Le due esecuzioni
    "fact.diff.head.overlap.one": (
        "Delle differenze campionate in entrambe le esecuzioni ({pairs}), {count} ha "
        "intervalli che si sovrappongono: quel controllo non distingue le due esecuzioni."
    ),
    "fact.diff.head.overlap.other": (
        "Delle differenze campionate in entrambe le esecuzioni ({pairs}), {count} hanno "
        "intervalli che si sovrappongono: quei controlli non distinguono le due esecuzioni."
    ),
    "fact.diff.overlap": (
        "{where}: l'esecuzione di sinistra ha campionato da {left_low} a {left_high}, quella "
        "di destra da {right_low} a {right_high}."
    ),
    "fact.diff.head.checks": (
        "Controlli in tutto: {count}; oltre la tolleranza: {differing}; entro la tolleranza: "
        "{within}."
    ),
    "fact.diff.head.favours": (
        "Differenze a favore dell'esecuzione di sinistra: {left}; a favore di quella di "
        "destra: {right}."
    ),
    "fact.diff.head.one_side": (
        "Controlli presenti solo a sinistra: {left}; solo a destra: {right}."
    ),
    "fact.diff.head.errored": (
        "Controlli non giudicati in una delle due esecuzioni o in entrambe, che non ne "
        "favoriscono nessuna: {count}."
    ),
    "fact.diff.head.exceeds": (
        "Delle differenze campionate in entrambe le esecuzioni ({pairs}), vantaggi "
        "dell'esecuzione di sinistra che cadono oltre entrambi gli intervalli osservati: "
        "{left}; dell'esecuzione di destra: {right}."
    ),
    "fact.diff.favours_left": (
        "{where} favorisce l'esecuzione di sinistra: {left} contro {right}, uno scarto di {gap}."
    ),
    "fact.diff.favours_left.flip": (
        "{where} è superato a sinistra e non superato a destra: {left} contro {right}."
    ),
    "fact.diff.favours_right": (
        "{where} favorisce l'esecuzione di destra: {left} contro {right}, uno scarto di {gap}."
    ),
    "fact.diff.favours_right.flip": (
        "{where} non è superato a sinistra ed è superato a destra: {left} contro {right}."
    ),
    "fact.diff.errored.left": "{where} non è stato giudicato nell'esecuzione di sinistra.",
    "fact.diff.errored.right": "{where} non è stato giudicato nell'esecuzione di destra.",
    "fact.diff.errored.both": "{where} non è stato giudicato in nessuna delle due esecuzioni.",
    "fact.diff.only_left": "{where} c'è solo nell'esecuzione di sinistra.",
    "fact.diff.only_right": "{where} c'è solo nell'esecuzione di destra.",
    "fact.diff.within": "{where}: {left} contro {right}, entro la tolleranza di {tolerance}.",
    # Se due esecuzioni differiscono oltre il caso.
    "heading.chance": "Oltre il caso?",
    "fact.chance.checks.one": (
        "{count} controllo è stato confrontato caso per caso, sui casi giudicati in entrambe le "
        "esecuzioni; una p sotto 0,05 dopo la correzione di Holm tra i controlli conta come "
        "oltre il caso."
    ),
    "fact.chance.checks.other": (
        "{count} controlli sono stati confrontati caso per caso, sui casi giudicati in entrambe "
        "le esecuzioni; una p sotto 0,05 dopo la correzione di Holm tra i controlli conta come "
        "oltre il caso."
    ),
    "fact.chance.verdicts.one": (
        "{check}: dell'unico caso giudicato in entrambe le esecuzioni ({count}), {worse} è "
        "passato da superato a non superato e {better} il contrario; se le due esecuzioni non "
        "differissero, una divisione almeno così sbilanciata capiterebbe per caso con "
        "probabilità {share} (p = {p}, test esatto di McNemar; {p_holm} dopo la correzione di Holm)."
    ),
    "fact.chance.verdicts.other": (
        "{check}: dei {count} casi giudicati in entrambe le esecuzioni, {worse} sono passati da "
        "superati a non superati e {better} il contrario; se le due esecuzioni non "
        "differissero, una divisione almeno così sbilanciata capiterebbe per caso con "
        "probabilità {share} (p = {p}, test esatto di McNemar; {p_holm} dopo la correzione di Holm)."
    ),
    "fact.chance.verdicts.diff.one": (
        "{check}: dell'unico caso giudicato in entrambe le esecuzioni ({count}), superato solo "
        "a sinistra: {left}, solo a destra: {right}; se le due esecuzioni non differissero, "
        "una divisione almeno così sbilanciata capiterebbe per caso con probabilità {share} "
        "(p = {p}, test esatto di McNemar; {p_holm} dopo la correzione di Holm)."
    ),
    "fact.chance.verdicts.diff.other": (
        "{check}: dei {count} casi giudicati in entrambe le esecuzioni, superati solo a "
        "sinistra: {left}, solo a destra: {right}; se le due esecuzioni non differissero, "
        "una divisione almeno così sbilanciata capiterebbe per caso con probabilità {share} "
        "(p = {p}, test esatto di McNemar; {p_holm} dopo la correzione di Holm)."
    ),
    "fact.chance.scores.one": (
        "{check}: {count} caso ha cambiato punteggio, e i punteggi si sono spostati in media di "
        "{delta} (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.scores.other": (
        "{check}: {count} casi hanno cambiato punteggio, e i punteggi si sono spostati in media "
        "di {delta} (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.scores.diff.left.one": (
        "{check}: {count} caso ha un punteggio diverso, più alto in media di {gap} a "
        "sinistra (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.scores.diff.left.other": (
        "{check}: {count} casi hanno un punteggio diverso, più alto in media di {gap} a "
        "sinistra (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.scores.diff.right.one": (
        "{check}: {count} caso ha un punteggio diverso, più alto in media di {gap} a "
        "destra (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.scores.diff.right.other": (
        "{check}: {count} casi hanno un punteggio diverso, più alto in media di {gap} a "
        "destra (intervallo al 95% da {low} a {high}); se le due esecuzioni non "
        "differissero, uno spostamento almeno così unilaterale capiterebbe per caso con "
        "probabilità {share} (p = {p}, test dei ranghi con segno di Wilcoxon; {p_holm} dopo "
        "la correzione di Holm)."
    ),
    "fact.chance.worse": (
        "{check} è peggiorato oltre il caso: p = {p_holm} dopo la correzione di Holm."
    ),
    "fact.chance.better": (
        "{check} è migliorato oltre il caso: p = {p_holm} dopo la correzione di Holm."
    ),
    "fact.chance.beyond": (
        "{check} differisce tra le due esecuzioni oltre il caso: p = {p_holm} dopo la "
        "correzione di Holm."
    ),
    "fact.chance.none": "Nessun controllo differisce oltre il caso dopo la correzione di Holm.",
    "fact.chance.case.fisher": (
        "{where}: campioni almeno così diversi capiterebbero per caso con probabilità {share} "
        "(p = {p}, test esatto di Fisher, solo questo caso, senza correzione tra i casi)."
    ),
    "fact.chance.case.mann_whitney": (
        "{where}: campioni almeno così diversi capiterebbero per caso con probabilità {share} "
        "(p = {p}, test U di Mann–Whitney, solo questo caso, senza correzione tra i casi)."
    ),
}
FEW = {
    "verdicts": (
        " Troppo pochi esiti sono cambiati perché una divisione possa essere oltre il caso a "
        "0,05: ne servono almeno {fewest}, tutti nello stesso verso."
    ),
    "scores": (
        " Troppo pochi punteggi sono cambiati perché uno spostamento possa essere oltre il caso "
        "a 0,05: ne servono almeno {fewest}."
    ),
}
"""What a test of too few changes could never show, said after what it found."""
