// Injected by ReportTest into a copy of the page (the report itself carries no script). It lists what a
// reader at this width would have to scroll sideways for, and every swimlane label that does not fit its
// cell, into <pre id="layout-check">, which --dump-dom hands back.
(function () {
  var width = document.documentElement.clientWidth;
  var out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push('page scrolls sideways: scrollWidth ' + document.documentElement.scrollWidth + ' > ' + width);
  }
  function name(e) {
    return e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '') + ' "'
        + (e.textContent || '').replace(/\s+/g, ' ').slice(0, 50) + '"';
  }
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.closest('pre') || e.closest('details:not([open])')) return;
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) out.push('overflows the page: ' + name(e) + ' right=' + Math.round(r.right));
  });
  document.querySelectorAll('.swimlane th, .swimlane td, .swimlane .lbl, .swimlane .out, .swimlane .mark, .swimlane-caption')
      .forEach(function (e) {
        if (e.scrollWidth > e.clientWidth + 1) out.push('clipped: ' + name(e) + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
        var cell = e.parentElement && e.parentElement.closest('td, th');
        if (cell) {
          var a = e.getBoundingClientRect(), b = cell.getBoundingClientRect();
          if (a.right > b.right + 1 || a.left < b.left - 1) out.push('outside its cell: ' + name(e));
        }
      });
  var labels = document.querySelectorAll('.swimlane .lbl').length;
  var result = document.createElement('pre');
  result.id = 'layout-check';
  result.textContent = 'labels ' + labels + '\n' + (out.length ? out.join('\n') : 'OK');
  document.body.appendChild(result);
})();
