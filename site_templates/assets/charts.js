// Draws every chart of a page from its JSON spec, with the one plotly.js the site ships.
function runsiteCharts() {
  document.querySelectorAll('script[type="application/json"][data-plotly]').forEach(function (source) {
    var target = document.getElementById(source.dataset.plotly);
    if (!target || target.dataset.rendered) return;
    var spec = JSON.parse(source.textContent);
    Plotly.newPlot(target, spec.data, spec.layout, {responsive: true, displayModeBar: false});
    target.dataset.rendered = "1";
  });
}
if (typeof document$ !== "undefined") { document$.subscribe(runsiteCharts); }
else { document.addEventListener("DOMContentLoaded", runsiteCharts); }
// A printed page shows every case, open.
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
});
