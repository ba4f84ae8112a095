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

  // errorBarRenderer draws one interval per category: solid with caps for a
  // confidence interval, dashed without caps for mean ± 1 SD (sd). Data
  // items are [category, lo, hi, n, value]: an interval left out (lo, hi
  // null) with n set writes "n = …" at the value instead. horiz: the
  // category axis is the y axis (a flipped chart).
  function errorBarRenderer(slot, slots, sd, horiz) {
    return function (params, api) {
      var x = api.value(0), lo = api.value(1), hi = api.value(2);
      var n = api.value(3), v = api.value(4);
      function at(c, val) { return horiz ? api.coord([val, c]) : api.coord([c, val]); }
      var band = horiz ? api.size([0, 1])[1] : api.size([1, 0])[0];
      var off = 0, half = 6;
      if (slot >= 0 && slots > 0) {
        // Bars take 80 % of the band (barCategoryGap 20 %), 30 % gaps between bars.
        var barW = band * 0.8 / (slots + 0.3 * (slots - 1));
        off = -band * 0.4 + slot * 1.3 * barW + barW / 2;
        half = Math.max(2, Math.min(barW * 0.25, 8));
      }
      if (!isNum(lo) || !isNum(hi)) {
        if (n == null || n === '' || !isNum(v)) return null;
        var pv = at(x, v);
        return {
          type: 'text',
          style: {
            text: 'n = ' + n, fill: '#222', font: '11px sans-serif',
            x: horiz ? pv[0] + 8 : pv[0] + off, y: horiz ? pv[1] + off : pv[1] - 10,
            align: horiz ? 'left' : 'center', verticalAlign: horiz ? 'middle' : 'bottom'
          }
        };
      }
      var pLo = at(x, lo), pHi = at(x, hi);
      var style = sd ? { stroke: '#333', lineWidth: 1.5, lineDash: [4, 3], fill: null }
        : { stroke: '#222', lineWidth: 1.5, fill: null };
      var kids;
      if (horiz) {
        var cy = pLo[1] + off;
        kids = [{ type: 'line', shape: { x1: pLo[0], y1: cy, x2: pHi[0], y2: cy }, style: style }];
        if (!sd) {
          kids.push({ type: 'line', shape: { x1: pLo[0], y1: cy - half, x2: pLo[0], y2: cy + half }, style: style });
          kids.push({ type: 'line', shape: { x1: pHi[0], y1: cy - half, x2: pHi[0], y2: cy + half }, style: style });
        }
      } else {
        var cx = pLo[0] + off;
        kids = [{ type: 'line', shape: { x1: cx, y1: pHi[1], x2: cx, y2: pLo[1] }, style: style }];
        if (!sd) {
          kids.push({ type: 'line', shape: { x1: cx - half, y1: pHi[1], x2: cx + half, y2: pHi[1] }, style: style });
          kids.push({ type: 'line', shape: { x1: cx - half, y1: pLo[1], x2: cx + half, y2: pLo[1] }, style: style });
        }
      }
      return { type: 'group', children: kids };
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
          var eb = (meta.errorBars || {})[String(p.seriesIndex)] || {};
          if (!isNum(v[1]) || !isNum(v[2])) {
            if (v[3] == null) return;
            line = esc(p.seriesName) + ': n = ' + esc(v[3]) + ', no interval drawn';
          } else {
            line = esc(p.seriesName) + (eb.sd ? ' mean ± 1 SD: [' : ' 95 % interval: [') + fy(v[1]) + ', ' + fy(v[2]) + ']';
          }
        } else if (meta.kind === 'heatmap') {
          line = esc(xcats[v[0]]) + ' · ' + esc(ycats[v[1]]) + ': ' + fy(v[2]);
        } else if (Array.isArray(v) && v.length === 2 && meta.flipped) {
          line = esc(p.seriesName) + ': ' + fy(v[0]);
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

  // prepare turns a chart's JSON spec into an ECharts option with the
  // page's functions: tooltip formatter, percent labels, error bars. mode:
  // 'wide' (as written), 'narrow' (below 600 px: a category chart turns
  // into horizontal bars or dots, every name on its own line) or 'export'.
  function prepare(spec, mode) {
    var option = JSON.parse(JSON.stringify(spec.option));
    var meta = JSON.parse(JSON.stringify(spec.meta || {}));
    var horiz = !!(mode === 'narrow' && meta.flip);
    if (horiz) flip(option, meta);
    if (mode === 'narrow') {
      // Too narrow for every point's name and the lines' end labels: names
      // that would collide are left to the tooltip.
      (option.series || []).forEach(function (s) {
        if (s.type === 'scatter' && s.label) s.labelLayout = { hideOverlap: true };
        if (s.endLabel) s.endLabel.show = false;
      });
    }
    meta.flipped = horiz;
    option.tooltip = option.tooltip || {};
    if (Array.isArray(option.tooltip)) option.tooltip = option.tooltip[0] || {};
    option.tooltip.formatter = tooltipFormatter(option, meta);
    var va = axis(option, horiz ? 'xAxis' : 'yAxis');
    if (meta.percent) {
      if (meta.kind === 'heatmap') {
        if (option.visualMap) {
          (Array.isArray(option.visualMap) ? option.visualMap : [option.visualMap]).forEach(function (vm) {
            vm.formatter = function (v) { return axisPct(v); };
          });
        }
        (option.series || []).forEach(function (s) {
          s.label = s.label || {};
          s.label.formatter = function (p) { return fmtPct(p.value[2]); };
        });
      } else {
        va.axisLabel = va.axisLabel || {};
        va.axisLabel.formatter = axisPct;
      }
    }
    if (meta.logY) {
      va.axisLabel = va.axisLabel || {};
      va.axisLabel.formatter = fmtNum;
    }
    if (meta.xPercent) {
      var xa = axis(option, 'xAxis');
      xa.axisLabel = xa.axisLabel || {};
      xa.axisLabel.formatter = axisPct;
    }
    var bars = meta.errorBars || {};
    Object.keys(bars).forEach(function (k) {
      var s = option.series[+k];
      if (!s) return;
      s.renderItem = errorBarRenderer(bars[k].slot, bars[k].slots, bars[k].sd, horiz);
      if (horiz) s.encode = { x: [1, 2], y: 0 };
    });
    return { option: option, meta: meta };
  }

  // wrapName breaks a long name into lines of at most 22 characters at
  // spaces, hyphens, underscores, slashes, dots and colons: never inside a
  // word (a word longer than a line keeps its line).
  function wrapName(name) {
    var s = String(name == null ? '' : name), max = 22;
    if (s.length <= max) return s;
    var parts = s.match(/[^\s\-_\/.:]+[\s\-_\/.:]*|[\s\-_\/.:]+/g) || [s];
    var lines = [], cur = '';
    parts.forEach(function (p) {
      if (cur && (cur + p).replace(/\s+$/, '').length > max) { lines.push(cur.replace(/\s+$/, '')); cur = ''; }
      cur += p;
    });
    if (cur) lines.push(cur.replace(/\s+$/, ''));
    return lines.join('\n');
  }

  // flip turns a vertical category chart into a horizontal one: the
  // categories on the y axis, first on top, each name on one line.
  function flip(option, meta) {
    var xa = axis(option, 'xAxis'), ya = axis(option, 'yAxis');
    var cat = JSON.parse(JSON.stringify(xa)), val = JSON.parse(JSON.stringify(ya));
    cat.inverse = true;
    cat.axisLabel = { color: '#222', interval: 0, rotate: 0, hideOverlap: false, formatter: wrapName };
    cat.nameLocation = 'end'; cat.nameGap = 8; cat.name = '';
    val.inverse = false;
    val.nameLocation = 'middle'; val.nameGap = 28;
    val.nameTextStyle = { fontWeight: 'bold' };
    option.xAxis = [val];
    option.yAxis = [cat];
    (option.series || []).forEach(function (s) {
      if (s.type === 'scatter' && Array.isArray(s.data)) {
        s.data = s.data.map(function (d, i) {
          var o = (d && typeof d === 'object' && !Array.isArray(d)) ? d : { value: d };
          o = JSON.parse(JSON.stringify(o));
          o.value = [o.value, i];
          return o;
        });
      }
    });
    var grid = Array.isArray(option.grid) ? option.grid[0] : option.grid;
    if (grid) { grid.bottom = 40; grid.left = 8; grid.right = 24; }
    meta.rows = (xa.data || []).length;
  }

  // footed adds an exported image's title, subtitle and footnote.
  function footed(option, meta, w) {
    option.title = [{ text: meta.title || '', subtext: meta.subtitle || '', left: 'center', top: 10,
      textStyle: { fontSize: 22, color: '#111' }, subtextStyle: { fontSize: 14, color: '#444' } }];
    option.graphic = [{ type: 'text', left: 24, bottom: 12,
      style: { text: meta.footnote || '', fill: '#444', font: '13px sans-serif', width: w - 48, overflow: 'break' } }];
    var lg = Array.isArray(option.legend) ? option.legend[0] : option.legend;
    if (lg) lg.top = 72;
    var grid = Array.isArray(option.grid) ? option.grid[0] : option.grid;
    if (grid) { grid.top = 120; grid.bottom = (+grid.bottom || 48) + 44; }
    option.backgroundColor = '#ffffff';
    return option;
  }

  // exportChart draws spec again offscreen at 960×540 (16:9) with its
  // title, subtitle and footnote and returns a PNG data URL at 2× (1920×1080)
  // or an SVG document.
  function exportChart(spec, type) {
    var w = 960, h = 540;
    var p = prepare(spec, 'export');
    var option = footed(p.option, p.meta, w);
    var div = document.createElement('div');
    div.style.cssText = 'position:absolute;left:-20000px;top:0;width:' + w + 'px;height:' + h + 'px';
    document.body.appendChild(div);
    var c = window.echarts.init(div, null, type === 'svg' ? { renderer: 'svg', width: w, height: h } : { renderer: 'canvas', width: w, height: h, devicePixelRatio: 2 });
    try {
      c.setOption(option);
      if (type === 'svg') return c.renderToSVGString();
      return c.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#ffffff' });
    } finally {
      c.dispose();
      div.parentNode.removeChild(div);
    }
  }

  function download(href, name) {
    var a = document.createElement('a');
    a.href = href;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.parentNode.removeChild(a);
  }

  var specs = {};

  // window.euroexecExport(specId, 'png'|'svg') is what the export buttons
  // call (and the browser tests).
  window.euroexecExport = function (id, type) {
    var spec = specs[id];
    return spec ? exportChart(spec, type) : null;
  };

  function wireExport() {
    document.querySelectorAll('button[data-export]').forEach(function (btn) {
      btn.addEventListener('click', function () {
        var id = btn.getAttribute('data-for'), type = btn.getAttribute('data-export');
        var out = window.euroexecExport(id, type);
        if (!out) return;
        var name = id.replace(/-spec$/, '').replace(/^fig-/, '');
        if (type === 'svg') {
          var url = URL.createObjectURL(new Blob([out], { type: 'image/svg+xml' }));
          download(url, name + '.svg');
          setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
        } else {
          download(out, name + '.png');
        }
      });
    });
  }

  var NARROW = 600;

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
      var id = el.getAttribute('data-spec');
      var node = document.getElementById(id);
      if (!node) return;
      var spec = JSON.parse(node.textContent);
      specs[id] = spec;
      var item = { el: el, spec: spec, mode: null, chart: null };
      charts.push(item);
      draw(item);
      el.setAttribute('data-drawn', 'true');
    });
    window.addEventListener('resize', function () { charts.forEach(draw); });
    // Print: draw every chart again at the printed width, so labels and
    // captions fall where the page has them; back after printing.
    function printMode(on) {
      charts.forEach(function (it) {
        it.el.style.width = '';
        if (on) it.el.style.width = Math.min(680, it.el.clientWidth || 680) + 'px';
        draw(it, true);
      });
    }
    window.addEventListener('beforeprint', function () { printMode(true); });
    window.addEventListener('afterprint', function () { printMode(false); });
    if (window.matchMedia) {
      var mq = window.matchMedia('print');
      var onChange = function (e) { printMode(e.matches); };
      if (mq.addEventListener) mq.addEventListener('change', onChange);
      else if (mq.addListener) mq.addListener(onChange);
    }
  }

  // draw (re)draws one chart for the width of its element.
  function draw(it, force) {
    var mode = it.el.clientWidth > 0 && it.el.clientWidth < NARROW ? 'narrow' : 'wide';
    if (mode === it.mode && !force) {
      if (it.chart) it.chart.resize();
      return;
    }
    var p = prepare(it.spec, mode);
    var flipped = !!(mode === 'narrow' && p.meta.flip);
    it.el.classList.toggle('flipped', flipped);
    it.el.style.height = flipped ? Math.max(240, 120 + 36 * (p.meta.rows || 0)) + 'px' : '';
    if (it.chart && it.mode !== mode) { it.chart.dispose(); it.chart = null; }
    if (!it.chart) it.chart = window.echarts.init(it.el, null, { renderer: 'canvas' });
    else it.chart.resize();
    it.chart.setOption(p.option, true);
    it.el.setAttribute('data-mode', flipped ? 'horizontal' : 'vertical');
    it.mode = mode;
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
    wireExport();
    document.querySelectorAll('table.sortable').forEach(makeSortable);
    questionSearch();
    window.addEventListener('beforeprint', function () {
      document.querySelectorAll('details:not(.figdata)').forEach(function (d) { d.open = true; });
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
