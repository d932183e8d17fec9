// Draws every chart of a page from the compact data beside it, with the one plotly.js the site
// ships, and writes the text table of a chart whose numbers only its data carries.
(function () {
  var SELF = document.currentScript.src;
  // A page no theme gives a scheme (the one-file report) follows the reader's on a screen, and
  // goes to paper light.
  if (!document.querySelector("[data-md-color-scheme]")) {
    var dark = window.matchMedia("screen and (prefers-color-scheme: dark)");
    var follow = function () {
      if (dark.matches) document.documentElement.dataset.mdColorScheme = "slate";
      else delete document.documentElement.dataset.mdColorScheme;
    };
    dark.addEventListener("change", follow);
    window.addEventListener("beforeprint", function () {
      delete document.documentElement.dataset.mdColorScheme;
    });
    window.addEventListener("afterprint", follow);
    follow();
  }
  var MEASURED = 3;
  var COLOURS = ["pass", "fail", "unjudged", "measured", "line", "band", "mark", "score", "before",
                 "before-score", "now", "now-score", "ground"];

  // The charts' colours in the scheme the page shows (runsite.css gives each scheme its own, every
  // mark 3:1 or more against the page and every word 4.5:1), and its ink and faint lines.
  function palette() {
    var style = getComputedStyle(document.body);
    var found = {};
    COLOURS.forEach(function (name) {
      found[name] = style.getPropertyValue("--runsite-chart-" + name).trim();
    });
    found.status = [found.pass, found.fail, found.unjudged, found.measured];
    found.ink = style.getPropertyValue("--md-default-fg-color").trim() || "#444";
    found.faint = style.getPropertyValue("--md-default-fg-color--lightest").trim() || "#eee";
    return found;
  }

  // A colour made see-through, for a band's fill: its edge keeps the colour whole.
  function tint(colour, alpha) {
    var hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
    if (!hex) return colour;
    return "rgba(" + [1, 2, 3].map(function (n) { return parseInt(hex[n], 16); }).join(", ") +
           ", " + alpha + ")";
  }

  // The legend, above the plot from its left edge: the top margin grows to hold it, so none of
  // its words falls on the plot's.
  var LEGEND = {orientation: "h", x: 0, xanchor: "left", y: 1, yanchor: "bottom"};
  // The pixels a moment under a history's axis needs (two lines: its date, then its time).
  var TICK = 84;
  // The pixels between two marks of a history that both carry their words.
  var LABELLED = 18;

  // The widest a chart is whose legend takes more than a line (a phone's).
  var NARROW = 480;

  // The width a chart's plot has in ``chart``, less ``sides`` pixels of margins.
  function plotWidth(chart, sides) {
    return Math.max((chart.clientWidth || 640) - sides, 120);
  }

  function column(rows, n) {
    return rows.map(function (row) { return row[n]; });
  }

  // A score axis: 0 to 1 where every figure is a share, else the figures' own scale with 0 on
  // it (a count, seconds), as report/svg.py draws it.
  function scoreAxis(figures, low, high) {
    var shares = figures.every(function (v) { return v === null || (v >= 0 && v <= 1); });
    return shares ? {range: [low, high]} : {autorange: true, rangemode: "tozero"};
  }

  // An exact figure, as the page's language writes numbers.
  function six(value) {
    if (value === null || value === undefined) return "";
    return value.toLocaleString(document.documentElement.lang,
                                {minimumFractionDigits: 2, maximumFractionDigits: 6});
  }

  // A figure in millionths at ``digits`` decimals, rounded half up as the site's own figures
  // are (formats.py), in the page's language.
  function fixed(n, digits) {
    if (n === null) return "";
    var unit = Math.pow(10, 6 - digits);
    return (Math.floor((n + unit / 2) / unit) * unit / 1e6).toLocaleString(
      document.documentElement.lang, {minimumFractionDigits: digits, maximumFractionDigits: digits});
  }

  // A share in millionths as a percentage, as the site writes shares (formats.py): whole,
  // unless that would print 0% or 100% for a share that is neither.
  function share(n) {
    if (n === null) return "";
    var value = n / 1e6, digits = 0;
    var edge = function (d) {
      var shown = Math.round(value * 100 * Math.pow(10, d)) / Math.pow(10, d);
      return value > 0 && value < 1 && (shown === 0 || shown === 100);
    };
    while (digits < 4 && edge(digits)) digits++;
    return value.toLocaleString(document.documentElement.lang,
      {style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits});
  }

  // A history's columns, each run's [score, min, max, threshold], back from millionths.
  function historyColumns(d) {
    var columns = [[], [], [], []];
    d.rows.forEach(function (n, at) { columns[at % 4].push(fromMillionths(n)); });
    return columns;
  }

  function history(d, _, chart) {
    var colour = palette();
    var c = historyColumns(d);
    var x = d.ticks.map(function (_, n) { return n; });
    var width = plotWidth(chart, 72);
    // As many moments under the axis as fit side by side, the newest always among them; the
    // axis reaches half a run past the first and the last, so neither label is cut.
    var every = Math.ceil(x.length / Math.max(1, Math.floor(width / TICK)));
    var shown = x.filter(function (n) { return (x.length - 1 - n) % every === 0; });
    var edge = {width: 1, color: colour.line, dash: "dot"};
    var data = [
      {type: "scatter", mode: "lines", x: x, y: c[2], line: edge, hoverinfo: "skip",
       showlegend: false},
      {type: "scatter", mode: "lines", x: x, y: c[1], fill: "tonexty", fillcolor: colour.band,
       line: edge, name: d.labels.band, hoverinfo: "skip"},
      {type: "scatter", mode: "lines+markers", x: x, y: c[0], line: {color: colour.line},
       marker: {color: colour.line, size: 7}, name: d.labels.score, text: d.ticks,
       hovertemplate: "%{text}<br>%{y" + (d.percent ? ":.1%" : "") + "}<extra></extra>"}
    ];
    // A pass rate's history has no threshold: its band is its Wilson interval.
    if (c[3].some(function (v) { return v !== null; })) {
      data.push({type: "scatter", mode: "lines", x: x, y: c[3],
                 line: {color: colour.fail, dash: "dash", width: 2}, name: d.labels.threshold});
    }
    // A change of rules, judge or target: a dotted line at its run, and its words beside the
    // line inside the plot, where no legend or tick is; a mark too close to the last one that carries
    // words carries none (the table under the chart names every one).
    var perRun = width / Math.max(x.length, 1), last = -Infinity;
    var worded = d.marks.filter(function (mark) {
      if ((mark[0] - last) * perRun < LABELLED) return false;
      last = mark[0];
      return true;
    });
    var layout = {
      margin: {l: 48, r: 16, t: 8, b: 40},
      xaxis: {tickmode: "array", tickvals: shown, tickangle: 0, automargin: true,
              range: [-0.5, x.length - 0.5], zeroline: false,
              ticktext: shown.map(function (n) { return d.ticks[n].replace(", ", "<br>"); })},
      yaxis: Object.assign(scoreAxis([].concat(c[0], c[1], c[2], c[3]), -0.02, 1.05),
                           {title: {text: d.labels.score}, tickformat: d.percent ? ".0%" : "",
                            automargin: true}),
      legend: LEGEND,
      shapes: d.marks.map(function (mark) {
        return {type: "line", xref: "x", yref: "paper", x0: mark[0], x1: mark[0], y0: 0, y1: 1,
                line: {dash: "dot", color: colour.mark, width: 1}};
      }),
      annotations: worded.map(function (mark) {
        return {xref: "x", yref: "paper", x: mark[0], y: 1, xshift: -9, yanchor: "top",
                textangle: -90, showarrow: false, font: {size: 11, color: colour.mark},
                bgcolor: colour.ground, text: mark[1].split(", ").join("<br>")};
      })
    };
    return [data, layout];
  }

  // The rows of interval data, each [case, check, min, max, score, status, threshold] with
  // numbers back from millionths; a status is its letter's index in "pfem" (charts.py LETTERS),
  // and a measurement no threshold judged has none.
  function intervalRows(d) {
    var rows = [];
    var width = d.checks.length;
    for (var at = 0; at < d.rows.length; at += d.stride) {
      var row = d.rows.slice(at, at + d.stride);
      if (d.dense) {
        var place = at / d.stride;
        row = [Math.floor(place / width), place % width].concat(row);
      }
      var threshold = row.length > 5 ? row[5] : d.thresholds[row[1]];
      var status = "pfem".indexOf(d.verdicts[at / d.stride]);
      rows.push([row[0], row[1]].concat([row[2], row[3], row[4]].map(fromMillionths),
                [status, status === MEASURED ? null : fromMillionths(threshold)]));
    }
    return rows;
  }

  // The numbers of packed rows (charts.py's ``packed``): three bytes each, big-endian, the
  // number plus one, all ones for none.
  function unpacked(text) {
    var raw = atob(text), numbers = [];
    for (var at = 0; at < raw.length; at += 3) {
      var n = (raw.charCodeAt(at) << 16) | (raw.charCodeAt(at + 1) << 8) | raw.charCodeAt(at + 2);
      numbers.push(n === 0xffffff ? null : n - 1);
    }
    return numbers;
  }

  function fromMillionths(n) {
    return n === null ? null : n / 1e6;
  }

  function intervalName(d, row) {
    return (row[0] < 0 ? d.run : d.cases[row[0]]) + " · " + d.checks[row[1]];
  }

  function intervals(d, check) {
    var colour = palette();
    var rows = intervalRows(d).filter(function (row) {
      return check === undefined || row[1] === check;
    });
    var names = rows.map(function (row) {
      return check === undefined ? intervalName(d, row) : (row[0] < 0 ? d.run : d.cases[row[0]]);
    });
    var status = function (row) { return colour.status[row[5]]; };
    var data = [
      {type: "bar", orientation: "h", y: names, base: column(rows, 2),
       x: rows.map(function (row) { return Math.max(row[3] - row[2], 0.004); }),
       marker: {color: rows.map(function (row) { return tint(status(row), 0.3); }),
                line: {color: rows.map(status), width: 1.5}},
       name: d.labels.band, hoverinfo: "skip"},
      {type: "scatter", mode: "markers", y: names, x: column(rows, 4),
       marker: {symbol: "diamond", size: 10, color: colour.score,
                line: {color: colour.ground, width: 1}}, name: d.labels.score},
      {type: "scatter", mode: "markers", y: names, x: column(rows, 6),
       marker: {symbol: "line-ns-open", size: 18, color: colour.fail, line: {width: 2}},
       name: d.labels.threshold}
    ];
    var layout = {margin: {l: check === undefined ? 220 : 120, r: 16, t: 8, b: 40},
                  barmode: "overlay",
                  xaxis: Object.assign(scoreAxis([].concat(column(rows, 2), column(rows, 3),
                    column(rows, 6)), -0.02, 1.02), {title: {text: d.labels.score}}),
                  yaxis: {autorange: "reversed", automargin: true},
                  legend: LEGEND};
    return [data, layout];
  }

  function intervalTable(d, body) {
    intervalRows(d).forEach(function (row) {
      var line = body.insertRow();
      [intervalName(d, row), six(row[2]), six(row[4]), six(row[3]), six(row[6]),
       d.statuses[row[5]]].forEach(function (text) {
        line.insertCell().textContent = text;
      });
    });
  }

  function historyTable(d, body) {
    var marks = {};
    d.marks.forEach(function (mark) { marks[mark[0]] = mark[1]; });
    d.ticks.forEach(function (tick, n) {
      var line = body.insertRow();
      var figures = d.rows.slice(4 * n, 4 * n + (d.percent ? 3 : 4)).map(function (v) {
        return d.percent ? share(v) : fixed(v, d.digits);
      });
      [tick].concat(figures, [marks[n] || ""]).forEach(function (text) {
        line.insertCell().textContent = text;
      });
    });
  }

  // Both runs' bands for one check, case by case: the earlier run's grey, this run's blue.
  function compare(d) {
    var colour = palette();
    var before = [], now = [];
    for (var at = 0; at < d.rows.length; at += 6) {
      before.push(d.rows.slice(at, at + 3).map(fromMillionths));
      now.push(d.rows.slice(at + 3, at + 6).map(fromMillionths));
    }
    function band(sides, name, edge, offset) {
      return {type: "bar", orientation: "h", y: d.cases, base: column(sides, 0), name: name,
              x: sides.map(function (s) { return s[0] === null ? null : Math.max(s[1] - s[0], 0.004); }),
              marker: {color: tint(edge, 0.3), line: {color: edge, width: 1.5}},
              offsetgroup: offset, hoverinfo: "skip"};
    }
    function score(sides, name, fill) {
      return {type: "scatter", mode: "markers", y: d.cases, x: column(sides, 2), name: name,
              marker: {symbol: "diamond", size: 9, color: fill,
                       line: {color: colour.ground, width: 1}}, showlegend: false};
    }
    var threshold = fromMillionths(d.threshold);
    var data = [band(before, d.labels.before, colour.before, "1"),
                band(now, d.labels.now, colour.now, "2"),
                score(before, d.labels.before, colour["before-score"]),
                score(now, d.labels.now, colour["now-score"])];
    var layout = {margin: {l: 160, r: 16, t: 8, b: 40}, barmode: "group",
                  xaxis: Object.assign(scoreAxis(d.rows.map(fromMillionths).concat([threshold]),
                    -0.02, 1.02), {title: {text: d.labels.score}}),
                  yaxis: {autorange: "reversed", automargin: true},
                  legend: LEGEND,
                  shapes: threshold === null ? [] : [{type: "line", xref: "x", yref: "paper",
                    x0: threshold, x1: threshold, y0: 0, y1: 1,
                    line: {color: colour.fail, dash: "dash", width: 2}}]};
    return [data, layout];
  }

  var FIGURES = {history: history, intervals: intervals, compare: compare};
  // The charts whose text table the page leaves for this script to write from their data.
  var TABLES = {intervals: intervalTable, history: historyTable};

  // The decimal mark and the thousands separator of the page's language, as plotly takes them
  // ("," then "." in Italian), so that its axes and hover labels write a number as the page's
  // tables and sentences do: 0,2 beside 0,20.
  function separators() {
    var parts = new Intl.NumberFormat(document.documentElement.lang || "en").formatToParts(12345.6);
    var mark = function (type, otherwise) {
      var found = parts.filter(function (part) { return part.type === type; })[0];
      return found ? found.value : otherwise;
    };
    return mark("decimal", ".") + mark("group", ",");
  }

  // A chart on the page's ground, in its ink, its numbers written as the page's language writes
  // them.
  function themed(layout) {
    var colour = palette();
    layout.separators = separators();
    layout.paper_bgcolor = layout.plot_bgcolor = "rgba(0,0,0,0)";
    layout.font = {color: colour.ink};
    ["xaxis", "yaxis"].forEach(function (axis) {
      layout[axis] = Object.assign(layout[axis] || {},
                                   {gridcolor: colour.faint, zerolinecolor: colour.faint});
    });
    return layout;
  }

  // Each layer of a chart says its own size, so that paper, narrower than the screen it was
  // drawn on, scales the chart whole instead of cutting it.
  function scalable(chart) {
    chart.querySelectorAll("svg.main-svg").forEach(function (layer) {
      layer.setAttribute("viewBox", "0 0 " + layer.getAttribute("width") + " " +
                         layer.getAttribute("height"));
    });
  }

  function charts() {
    return document.querySelectorAll(".runsite-chart.js-plotly-plot");
  }

  // Every chart drawn again: in the scheme the reader chose, at the width it now has (on paper,
  // the paper's).
  function redraw() {
    charts().forEach(function (chart) {
      if (chart.runsiteChart) plot(chart, chart.runsiteChart[0], chart.runsiteChart[1]);
    });
  }

  // A checkbox that hides the rows of a table that did not change.
  function filters() {
    document.querySelectorAll("input[data-filter]").forEach(function (box) {
      var target = document.querySelector("." + box.dataset.filter);
      if (!target || box.dataset.bound) return;
      var apply = function () { target.classList.toggle("runsite-filtered", box.checked); };
      box.addEventListener("change", apply);
      box.dataset.bound = "1";
      apply();
    });
  }

  function plot(target, d, check) {
    var figure = FIGURES[d.kind](d, check, target);
    // The height the page gave the chart, and on a phone room for its legend's lines besides.
    target.runsiteHeight = target.runsiteHeight || target.clientHeight;
    figure[1].height = target.runsiteHeight + (target.clientWidth < NARROW ? 48 : 0);
    target.style.height = figure[1].height + "px";
    target.runsiteChart = [d, check];
    Plotly.react(target, figure[0], themed(figure[1]), {displayModeBar: false});
    scalable(target);
    if (!target.dataset.drawn) target.on("plotly_afterplot", function () { scalable(target); });
    target.dataset.drawn = "1";
  }

  // Every chart of the page: one drawn from the data of the same name, or (``data-of``) one
  // check's part of a run's interval data, which its checks' charts share.
  function draw() {
    document.querySelectorAll('script[type="application/json"][data-chart]').forEach(function (source) {
      var d = JSON.parse(source.textContent);
      if (typeof d.rows === "string") d.rows = unpacked(d.rows);
      var target = document.getElementById(source.dataset.chart);
      if (target && !target.dataset.drawn) plot(target, d);
      document.querySelectorAll('[data-of="' + source.dataset.chart + '"]').forEach(function (part) {
        if (!part.dataset.drawn) plot(part, d, Number(part.dataset.check));
      });
      var table = document.querySelector('table[data-rows-of="' + source.dataset.chart + '"]');
      if (TABLES[d.kind] && table && !table.tBodies[0].rows.length) {
        TABLES[d.kind](d, table.tBodies[0]);
      }
    });
  }


  // The cases table of a run page: only the cases that failed (or could not be judged), of
  // every check or of one.
  function caseFilters() {
    var failed = document.querySelector('input[data-cases="failed"]');
    var check = document.querySelector('select[data-cases="check"]');
    if (!failed || !check || failed.dataset.bound) return;
    var rows = document.querySelectorAll(".runsite-matrix tbody tr");
    function bad(cell) { return cell && /^[fe]/.test(cell.className); }
    function apply() {
      rows.forEach(function (row) {
        var cells = check.value ? [row.cells[Number(check.value)]] : [].slice.call(row.cells, 1);
        row.hidden = (failed.checked || Boolean(check.value)) && !cells.some(bad);
      });
      var none = document.querySelector(".runsite-nothing");
      var shown = [].some.call(rows, function (row) { return !row.hidden; });
      if (none) none.hidden = shown;
    }
    failed.addEventListener("change", apply);
    check.addEventListener("change", apply);
    failed.dataset.bound = "1";
  }

  // The page of a suite's cases: a case's verdict in each run that measured it, newest first,
  // written when the case is opened (or the page goes to paper) from the letters the page
  // carries: for each run the case's status, then each check's (case_history.py).
  var cases = null;
  function caseTable(holder) {
    if (holder.firstChild) return;
    var source = document.querySelector("script[data-cases]");
    if (!source) return;
    cases = cases || JSON.parse(source.textContent);
    var letters = cases.cases[holder.dataset.case], width = cases.checks.length + 1;
    var anchor = holder.closest("details").id;
    var frame = document.createElement("div");
    frame.className = "runsite-matrix runsite-history";
    // Wrapped as the theme wraps a page's tables, so that it scrolls inside the page as they do.
    var wrap = frame.appendChild(document.createElement("div"));
    wrap.className = "md-typeset__scrollwrap";
    var inner = wrap.appendChild(document.createElement("div"));
    inner.className = "md-typeset__table";
    var table = inner.appendChild(document.createElement("table"));
    var legend = table.createCaption().appendChild(document.createElement("span"));
    legend.textContent = cases.labels.legend;
    var head = table.createTHead().insertRow();
    [cases.labels.measured, cases.labels.status].concat(cases.checks).forEach(function (name) {
      var cell = head.appendChild(document.createElement("th"));
      cell.scope = "col";
      cell.textContent = name;
    });
    var body = table.createTBody();
    cases.keys.forEach(function (key, n) {
      var run = letters.substr(n * width, width);
      if (run[0] === ".") return;
      var row = body.insertRow();
      var named = row.appendChild(document.createElement("th"));
      named.scope = "row";
      var link = named.appendChild(document.createElement("a"));
      link.href = cases.runs + key + "/#" + anchor;
      link.textContent = cases.moments[n];
      link.title = cases.exact[n];
      if (n === cases.reference) named.appendChild(document.createTextNode(" ★"));
      var status = row.insertCell();
      status.className = run[0];
      status.textContent = cases.labels[run[0]];
      run.slice(1).split("").forEach(function (letter) {
        var cell = row.insertCell();
        if (letter !== "-") cell.className = letter;
      });
    });
    holder.appendChild(frame);
    scrollCues();
  }
  function caseHistories() {
    document.querySelectorAll(".runsite-history[data-case]").forEach(function (holder) {
      var details = holder.closest("details");
      if (details.dataset.bound) return;
      details.addEventListener("toggle", function () { if (details.open) caseTable(holder); });
      details.dataset.bound = "1";
      if (details.open) caseTable(holder);
    });
  }

  // A case's place on a run page opens when a link (or the address) leads to it.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.tagName === "DETAILS" && !target.open) {
      target.open = true;
      target.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", openTarget);

  // plotly.js, beside this script, fetched only by a page that draws a chart.
  var PLOTLY = SELF.replace(/charts\.js([?#].*)?$/, "plotly-basic.min.js");
  function withPlotly(then) {
    if (!document.querySelector('script[type="application/json"][data-chart]')) return;
    if (typeof Plotly !== "undefined") { then(); return; }
    var script = document.querySelector("script[data-runsite-plotly]");
    if (!script) {
      script = document.createElement("script");
      script.src = PLOTLY;
      script.dataset.runsitePlotly = "1";
      document.head.appendChild(script);
    }
    script.addEventListener("load", then);
  }

  // A table that scrolls sideways marks its frame while more of it lies to the right.
  var FRAMES = ".runsite-table, .runsite-grid, .runsite-matrix, .runsite-compare";
  function scrollCues() {
    document.querySelectorAll(FRAMES).forEach(function (frame) {
      // The theme wraps a table in a frame of its own that scrolls.
      var table = frame.querySelector(".md-typeset__scrollwrap") || frame.querySelector("table");
      if (!table || frame.dataset.cued) return;
      var mark = function () {
        var more = table.scrollLeft + table.clientWidth < table.scrollWidth - 1;
        frame.toggleAttribute("data-more", more);
      };
      table.addEventListener("scroll", mark, {passive: true});
      window.addEventListener("resize", mark);
      frame.addEventListener("toggle", mark, true);
      frame.dataset.cued = "1";
      mark();
    });
  }

  // The language switch lands on the same place of the page in the other language.
  function keepPlace() {
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
      link.addEventListener("click", function () {
        if (location.hash) link.href = link.href.split("#")[0] + location.hash;
      });
    });
  }

  function ready() {
    withPlotly(draw); filters(); caseFilters(); caseHistories(); openTarget(); scrollCues();
    keepPlace();
  }
  if (typeof document$ !== "undefined") { document$.subscribe(ready); }
  else { document.addEventListener("DOMContentLoaded", ready); }
  // A printed page shows every table, open, and every chart at the paper's width.
  // Paper is light whichever scheme the screen shows (the theme prints a white ground): a page
  // goes to print in the light scheme, charts and marks included, and comes back to the
  // reader's.
  var onScreen = null;
  window.addEventListener("beforeprint", function () {
    var scheme = document.body.dataset.mdColorScheme;
    if (scheme && scheme !== "default") {
      onScreen = scheme;
      document.body.dataset.mdColorScheme = "default";
    }
  });
  window.addEventListener("afterprint", function () {
    if (onScreen) document.body.dataset.mdColorScheme = onScreen;
    onScreen = null;
  });
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    document.querySelectorAll(".runsite-history[data-case]").forEach(caseTable);
    redraw();
  });
  window.addEventListener("afterprint", redraw);
  window.matchMedia("print").addEventListener("change", redraw);
  // A window made narrower or wider: its charts drawn again at their new width.
  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(redraw, 150);
  });
  new MutationObserver(redraw).observe(document.body, {attributes: true,
    attributeFilter: ["data-md-color-scheme"]});
})();
