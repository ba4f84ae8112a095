/* euroexec site script: draws the figures from their JSON specs, sorts
   tables, filters the question index. No network, no HTML from data: every
   text that reaches innerHTML goes through esc(). */
(function () {
  'use strict';

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function isNum(v) { return typeof v === 'number' && isFinite(v); }
  function fmtNum(v) {
    if (!isNum(v)) return '—';
    var a = Math.abs(v);
    if (v === 0) return '0';
    if (a < 1e-3 || a >= 1e6) return v.toExponential(2);
    if (a >= 1000) return v.toFixed(1);
    return String(+v.toFixed(3));
  }
  function fmtPct(v) { return isNum(v) ? (v * 100).toFixed(1) + ' %' : '—'; }
  function axisPct(v) { return (Math.round(v * 1000) / 10) + '%'; }

  function errorBarRenderer(slot, slots) {
    return function (params, api) {
      var x = api.value(0), lo = api.value(1), hi = api.value(2);
      if (!isNum(lo) || !isNum(hi)) return null;
      var pLo = api.coord([x, lo]), pHi = api.coord([x, hi]);
      var band = api.size([1, 0])[0];
      var cx = pLo[0];
      var half = 6;
      if (slot >= 0 && slots > 0) {
        // Bars take 80 % of the band (barCategoryGap 20 %), 30 % gaps between bars.
        var barW = band * 0.8 / (slots + 0.3 * (slots - 1));
        cx = pLo[0] - band * 0.4 + slot * 1.3 * barW + barW / 2;
        half = Math.max(2, Math.min(barW * 0.25, 8));
      }
      var style = { stroke: '#222', lineWidth: 1.5, fill: null };
      return {
        type: 'group',
        children: [
          { type: 'line', shape: { x1: cx, y1: pHi[1], x2: cx, y2: pLo[1] }, style: style },
          { type: 'line', shape: { x1: cx - half, y1: pHi[1], x2: cx + half, y2: pHi[1] }, style: style },
          { type: 'line', shape: { x1: cx - half, y1: pLo[1], x2: cx + half, y2: pLo[1] }, style: style }
        ]
      };
    };
  }

  // axis returns the first x or y axis of an option (go-echarts writes lists).
  function axis(option, key) {
    var a = option[key];
    return Array.isArray(a) ? a[0] : a;
  }

  function tooltipFormatter(option, meta) {
    var fy = meta.percent ? fmtPct : fmtNum;
    var fx = meta.xPercent ? fmtPct : fmtNum;
    var xcats = (axis(option, 'xAxis') && axis(option, 'xAxis').data) || [];
    var ycats = (axis(option, 'yAxis') && axis(option, 'yAxis').data) || [];
    return function (params) {
      var list = Array.isArray(params) ? params : [params];
      var out = [];
      if (Array.isArray(params) && list.length) {
        out.push('<b>' + esc(list[0].axisValueLabel != null ? list[0].axisValueLabel : list[0].name) + '</b>');
      }
      list.forEach(function (p) {
        var v = p.value, line;
        if (p.seriesType === 'custom') {
          line = esc(p.seriesName) + ' interval: [' + fy(v[1]) + ', ' + fy(v[2]) + ']';
        } else if (meta.kind === 'heatmap') {
          line = esc(xcats[v[0]]) + ' · ' + esc(ycats[v[1]]) + ': ' + fy(v[2]);
        } else if (Array.isArray(v)) {
          line = (v[2] ? '<b>' + esc(v[2]) + '</b><br>' : '') + esc(p.seriesName) + ': (' + fx(v[0]) + ', ' + fy(v[1]) + ')';
        } else {
          line = esc(p.seriesName) + ': ' + fy(v);
        }
        out.push(p.marker + line);
      });
      return out.join('<br>');
    };
  }

  // svgOf draws option again with ECharts' SVG renderer on an offscreen
  // element of el's size and returns the SVG document (no toolbox).
  function svgOf(el, option) {
    var div = document.createElement('div');
    div.style.cssText = 'position:absolute;left:-20000px;top:0;width:' + (el.clientWidth || 800) +
      'px;height:' + (el.clientHeight || 420) + 'px';
    document.body.appendChild(div);
    var c = window.echarts.init(div, null, { renderer: 'svg' });
    try {
      c.setOption(option);
      c.setOption({ toolbox: { show: false } });
      return c.renderToSVGString();
    } finally {
      c.dispose();
      div.parentNode.removeChild(div);
    }
  }

  // addSaveSVG puts a "Save as SVG" button beside the toolbox's PNG one:
  // the chart is drawn again as SVG and downloaded, all in the page (offline).
  function addSaveSVG(option, el) {
    var tb = Array.isArray(option.toolbox) ? option.toolbox[0] : option.toolbox;
    if (!tb || !tb.feature) return;
    var png = tb.feature.saveAsImage || {};
    var name = (png.name || 'chart') + '.svg';
    tb.feature.mySaveSVG = {
      show: true,
      title: 'Save as SVG',
      icon: 'path://M3,3H21V21H3Z M6,16L10,10L13,14L15,11L18,16Z',
      onclick: function () {
        var blob = new Blob([svgOf(el, option)], { type: 'image/svg+xml' });
        var a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = name;
        document.body.appendChild(a);
        a.click();
        a.parentNode.removeChild(a);
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
      }
    };
  }

  function drawCharts() {
    var els = document.querySelectorAll('.echart');
    if (!els.length) return;
    if (typeof window.echarts === 'undefined') {
      document.body.classList.add('no-echarts');
      document.querySelectorAll('details.figdata').forEach(function (d) { d.open = true; });
      return;
    }
    var charts = [];
    els.forEach(function (el) {
      var node = document.getElementById(el.getAttribute('data-spec'));
      if (!node) return;
      var spec = JSON.parse(node.textContent);
      var option = spec.option, meta = spec.meta || {};
      option.tooltip = option.tooltip || {};
      option.tooltip.formatter = tooltipFormatter(option, meta);
      if (meta.percent) {
        if (meta.kind === 'heatmap') {
          if (option.visualMap) option.visualMap.formatter = function (v) { return axisPct(v); };
          (option.series || []).forEach(function (s) {
            s.label = s.label || {};
            s.label.formatter = function (p) { return fmtPct(p.value[2]); };
          });
        } else {
          var ya = axis(option, 'yAxis');
          ya.axisLabel = ya.axisLabel || {};
          ya.axisLabel.formatter = axisPct;
        }
      }
      if (meta.logY) {
        var yl = axis(option, 'yAxis');
        yl.axisLabel = yl.axisLabel || {};
        yl.axisLabel.formatter = fmtNum;
      }
      if (meta.xPercent) {
        var xa = axis(option, 'xAxis');
        xa.axisLabel = xa.axisLabel || {};
        xa.axisLabel.formatter = axisPct;
      }
      var bars = meta.errorBars || {};
      Object.keys(bars).forEach(function (k) {
        var s = option.series[+k];
        if (s) s.renderItem = errorBarRenderer(bars[k].slot, bars[k].slots);
      });
      addSaveSVG(option, el);
      var chart = window.echarts.init(el, null, { renderer: 'canvas' });
      chart.setOption(option);
      el.setAttribute('data-drawn', 'true');
      charts.push(chart);
    });
    window.addEventListener('resize', function () { charts.forEach(function (c) { c.resize(); }); });
  }

  function sortKey(td) {
    if (!td) return { n: NaN, s: '' };
    var raw = td.getAttribute('data-sort');
    var s = raw != null ? raw : td.textContent;
    var n = raw != null && raw !== '' ? Number(raw) : NaN;
    return { n: n, s: s.toLowerCase() };
  }

  function makeSortable(table) {
    var head = table.tHead;
    if (!head || !table.tBodies.length) return;
    var ths = head.rows[0].cells;
    Array.prototype.forEach.call(ths, function (th, col) {
      th.tabIndex = 0;
      function go() {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(ths, function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var keyed = rows.map(function (r, i) { return { r: r, k: sortKey(r.cells[col]), i: i }; });
        keyed.sort(function (a, b) {
          var c;
          var an = !isNaN(a.k.n), bn = !isNaN(b.k.n);
          if (an && bn) c = a.k.n - b.k.n;
          else if (an !== bn) c = an ? -1 : 1;
          else c = a.k.s < b.k.s ? -1 : a.k.s > b.k.s ? 1 : 0;
          if (!asc) c = -c;
          return c || a.i - b.i;
        });
        keyed.forEach(function (x) { body.appendChild(x.r); });
      }
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
    });
  }

  function questionSearch() {
    var input = document.getElementById('qsearch');
    var table = document.getElementById('qindex');
    if (!input || !table) return;
    var count = document.getElementById('qcount');
    if (table.hasAttribute('data-shards')) return shardedSearch(input, table, count);
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
    input.addEventListener('input', function () {
      var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (r, i) {
        var ok = terms.every(function (t) { return texts[i].indexOf(t) >= 0; });
        r.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = String(shown);
    });
  }

  // The index of a large study: rows [id, file, domain, difficulty, author,
  // responses, gradings, snippet, featured] from the data files
  // (window.EUROEXEC_QUESTIONS); the first 500 matches are shown, built
  // with textContent only.
  function shardedSearch(input, table, count) {
    var data = window.EUROEXEC_QUESTIONS || [];
    var texts = data.map(function (q) {
      return [q[0], q[2], q[3], q[4], q[7], q[8]].join(' ').toLowerCase();
    });
    var body = table.tBodies[0];
    var limit = 500;
    function cell(tr, text, cls) {
      var td = document.createElement('td');
      if (cls) td.className = cls;
      td.textContent = text;
      tr.appendChild(td);
      return td;
    }
    function show() {
      var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var frag = document.createDocumentFragment();
      var shown = 0;
      for (var i = 0; i < data.length; i++) {
        var ok = true;
        for (var k = 0; k < terms.length && ok; k++) ok = texts[i].indexOf(terms[k]) >= 0;
        if (!ok) continue;
        shown++;
        if (shown > limit) continue;
        var q = data[i], tr = document.createElement('tr');
        var td = document.createElement('td');
        if (q[1]) {
          var a = document.createElement('a');
          a.href = q[1];
          a.textContent = q[0];
          td.appendChild(a);
        } else {
          td.textContent = q[0];
        }
        tr.appendChild(td);
        cell(tr, q[2]); cell(tr, q[3]); cell(tr, q[4]);
        cell(tr, String(q[5]), 'num').setAttribute('data-sort', String(q[5]));
        cell(tr, String(q[6]), 'num').setAttribute('data-sort', String(q[6]));
        cell(tr, q[7], 'snippet');
        cell(tr, q[8]);
        frag.appendChild(tr);
      }
      body.textContent = '';
      body.appendChild(frag);
      if (count) count.textContent = String(shown);
    }
    input.addEventListener('input', show);
    show();
  }

  function init() {
    drawCharts();
    document.querySelectorAll('table.sortable').forEach(makeSortable);
    questionSearch();
    window.addEventListener('beforeprint', function () {
      document.querySelectorAll('details').forEach(function (d) { d.open = true; });
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
