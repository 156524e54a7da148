"""The review page's HTML frame, CSS and script, as Python strings (docs/pages.md).

Kept as strings in the package, not as package data, so an installed copy
has them without any packaging rule. The script reads the page's one JSON
blob and writes only with textContent, setAttribute and createElementNS:
no string from the data is ever parsed as markup.
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header><h1 id="title"></h1><p id="seats"></p><p id="outcome"></p></header>
<nav id="controls">
<button id="first" title="first turn (Home)">&laquo; first</button>
<button id="prev" title="previous turn (left arrow)">&#x25C0; prev</button>
<button id="play" title="play or pause (space)">play</button>
<button id="next" title="next turn (right arrow)">next &#x25B6;</button>
<button id="last" title="last turn (End)">last &raquo;</button>
<input id="slider" type="range" min="0" value="0" aria-label="turn">
<span id="turn"></span>
<label>view <select id="view"></select></label>
</nav>
<section id="move-box"><div id="move"></div><div id="talk"></div></section>
<main>
<section id="truth-box"><h2>truth</h2>
<svg id="drawing"><g id="base"></g><g id="over"></g></svg>
<pre id="truth"></pre></section>
<section id="view-box"><h2 id="view-name"></h2><pre id="view-text"></pre></section>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{js}</script>
</body>
</html>
"""

CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em; color: #222; background: #fafafa; }
h1 { font-size: 1.2em; margin: 0; overflow-wrap: anywhere; } h2 { font-size: 1em; margin: .3em 0; }
#outcome, #seats { margin: .2em 0; color: #555; } #seats:empty { display: none; }
nav { display: flex; flex-wrap: wrap; gap: .4em; align-items: center; margin: .6em 0; }
#slider { flex: 1; min-width: 10em; }
#move-box { background: #fff; border: 1px solid #ccc; padding: .4em .6em; min-height: 2.6em; }
#move { font-weight: bold; } #talk { white-space: pre-wrap; color: #245; }
main { display: flex; flex-wrap: wrap; gap: 1em; margin-top: .6em; }
main section { flex: 1; min-width: 22em; }
pre { white-space: pre-wrap; word-break: break-word; background: #fff; border: 1px solid #ccc;
  padding: .5em; max-height: 28em; overflow: auto; font-size: 12px; }
svg { background: #fff; border: 1px solid #ccc; max-width: 100%; }
svg text { font: 11px sans-serif; text-anchor: middle; }
svg .legend, svg .bid, svg .seat { text-anchor: start; font-size: 13px; }
svg .bluff { text-anchor: start; font-size: 13px; fill: #b00; font-weight: bold; }
.cell { fill: #eee; stroke: #999; } .name { fill: #777; font-size: 9px; }
.edge0 { fill: #d33; } .edge1 { fill: #36c; }
.stone0 { fill: #d33; } .stone1 { fill: #36c; } .mark { fill: #fff; font-weight: bold; }
svg .big0 { fill: #d33; font-size: 44px; font-weight: bold; }
svg .big1 { fill: #36c; font-size: 44px; font-weight: bold; }
.collision { fill: none; stroke: #f90; stroke-width: 3; stroke-dasharray: 4 2; }
.last { fill: none; stroke: #000; stroke-width: 2; }
.sensed { fill: #ffe9a8; stroke: #c90; opacity: .75; }
.path { stroke: #2a2; stroke-width: 6; stroke-linecap: round; opacity: .8; }
.die { fill: #fff; stroke: #333; } .wild { fill: #ffe9a8; stroke: #333; } .pip { fill: #222; }
.dango { fill: #e8a; stroke: #a46; } .eaten { fill: none; stroke: #ccc; }
.cog { fill: #568; } .out { fill: #bbb; } .gun { fill: #222; }
svg .cog + text, svg .out + text { fill: #fff; }
.card { fill: #555; font-size: 10px; } svg .hp { fill: #fff; font-size: 10px; }
.shot-hit { stroke: #d22; stroke-width: 3; } .shot-miss { stroke: #999; stroke-width: 2;
  stroke-dasharray: 6 4; } .shot-aimed { stroke: #f90; stroke-width: 2; }
"""

JS = r"""
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const N = D.turns.length, V = D.views.length, SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  // Each turn keeps [kept, tail] of each view's string: rebuild them once.
  const S = [];
  let before = new Array(V).fill("");
  for (const turn of D.turns) {
    const row = turn.s.map((d, v) => before[v].slice(0, d[0]) + d[1]);
    S.push(row);
    before = row;
  }
  const shape = (s) => {
    const kind = s[0];
    const el = document.createElementNS(SVG, {r: "rect", c: "circle", l: "line", g: "polygon", t: "text"}[kind]);
    const set = (names) => names.forEach((n, i) => el.setAttribute(n, s[i + 1]));
    if (kind === "r") set(["x", "y", "width", "height"]);
    else if (kind === "c") set(["cx", "cy", "r"]);
    else if (kind === "l") set(["x1", "y1", "x2", "y2"]);
    else if (kind === "g") set(["points"]);
    else { set(["x", "y"]); el.textContent = s[3]; }
    el.setAttribute("class", s[s.length - 1]);
    return el;
  };
  const drawing = $("drawing");
  if (D.size[0] > 0) {
    drawing.setAttribute("width", D.size[0]);
    drawing.setAttribute("height", D.size[1]);
    drawing.setAttribute("viewBox", "0 0 " + D.size[0] + " " + D.size[1]);
    $("base").replaceChildren(...D.base.map(shape));
  } else {
    drawing.style.display = "none";
  }
  $("title").textContent = D.title;
  $("outcome").textContent = D.outcome.join("; ");
  $("seats").textContent = D.seats.length ? "seats: " + D.seats.join("; ") : "";
  document.title = "review: " + D.title;
  const select = $("view"), slider = $("slider");
  D.views.forEach((name, v) => {
    const option = document.createElement("option");
    option.value = String(v);
    option.textContent = name;
    select.appendChild(option);
  });
  select.value = "1";
  slider.max = String(N - 1);
  let at = 0, timer = null;
  const show = (t) => {
    at = Math.max(0, Math.min(N - 1, t));
    const turn = D.turns[at];
    slider.value = String(at);
    $("turn").textContent = "turn " + at + " of " + (N - 1);
    $("move").textContent = turn.move === null ? "start" : turn.mover + ": " + turn.move;
    const talk = turn.talk;
    const lines = [];
    if (talk) {
      if (talk.say) lines.push("say: " + talk.say);
      if (talk.notes) lines.push("notes: " + talk.notes);
      if (talk.fell_back) lines.push("(the reply could not be used: the fallback bot chose)");
    }
    $("talk").textContent = lines.join("\n");
    $("truth").textContent = S[at][0];
    const v = Number(select.value);
    $("view-name").textContent = D.views[v];
    $("view-text").textContent = S[at][v];
    for (const id of ["truth", "view-text"]) $(id).scrollTop = $(id).scrollHeight; // (the news is last)
    $("over").replaceChildren(...turn.d.map(shape));
    const hash = "#turn=" + at;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  };
  const fromHash = () => {
    const m = /^#turn=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  };
  const pause = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = "play";
  };
  const play = () => {
    if (timer !== null) return pause();
    if (at === N - 1) show(0);
    $("play").textContent = "pause";
    timer = setInterval(() => (at < N - 1 ? show(at + 1) : pause()), 700);
  };
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(N - 1));
  $("play").addEventListener("click", play);
  slider.addEventListener("input", () => show(Number(slider.value)));
  select.addEventListener("change", () => show(at));
  window.addEventListener("hashchange", () => show(fromHash()));
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT") return; // (they move by the keys themselves)
    const go = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: N - 1}[e.key];
    if (go !== undefined) { e.preventDefault(); show(go); }
    else if (e.key === " ") { e.preventDefault(); play(); }
  });
  show(fromHash());
})();
"""
