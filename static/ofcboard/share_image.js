// "Share the night" on the settlement: the night as a picture, drawn on the phone.
//
// The page hands over every word and number, already translated and formatted
// (scorekeeper/reads/picture.py, in the json_script block "night-picture"); this
// file only lays them out on a 1080 px wide <canvas> in the phone's own fonts, so
// every language and every name (Chinese ones too) comes out as the phone writes it.
// The picture goes to the phone's share sheet where the browser can share files,
// and is saved as a PNG download where it cannot. Without this file (or without a
// canvas) the button stays hidden and "Copy as text" is still there.
//
// The data, the share text and the button are part of the settlement's live part: when
// a payment is marked on another phone or the night ends, they come in anew with the
// rest of the page, and the picture is drawn again from them.
(function () {
  "use strict";

  if (!window.HTMLCanvasElement || !HTMLCanvasElement.prototype.toBlob) return;
  let night = null;
  let drawnFrom = null; // the data the picture below was made from

  const WIDTH = 1080;
  const MARGIN = 60; // around the picture
  const PAD = 44; // inside a card
  const INNER = WIDTH - 2 * MARGIN - 2 * PAD;
  // The light scheme of app.css: the picture looks the same whatever the phone's scheme.
  const LOOK = {
    bg: "#f6f4ef", card: "#ffffff", line: "#d9d5cc", rule: "#ece9e2", fg: "#1b1d21",
    muted: "#5d6168", accent: "#1d6b4f", good: "#1d6b4f", bad: "#b3261e", badBg: "#fde8e6",
  };
  const FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", ' +
    'Arial, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", ' +
    '"WenQuanYi Zen Hei", sans-serif';
  const font = (size, weight) => `${weight || 400} ${Math.round(size)}px ${FONTS}`;

  // Words at most `width` wide, in lines: broken at spaces, and a word too long for a
  // line (a Chinese sentence has few spaces) between its characters.
  function wrap(ctx, text, width) {
    const lines = [];
    let line = "";
    for (const word of text.split(/(\s+)/)) {
      if (!word) continue;
      const tried = line + word;
      if (ctx.measureText(tried).width <= width) { line = tried; continue; }
      if (line.trim()) lines.push(line.trim());
      line = /^\s+$/.test(word) ? "" : word;
      while (ctx.measureText(line).width > width) {
        const characters = Array.from(line);
        let fits = 1;
        while (fits < characters.length &&
               ctx.measureText(characters.slice(0, fits + 1).join("")).width <= width) fits += 1;
        lines.push(characters.slice(0, fits).join(""));
        line = characters.slice(fits).join("");
      }
    }
    if (line.trim()) lines.push(line.trim());
    return lines.length ? lines : [""];
  }

  // `text` cut with an ellipsis to fit `width`.
  function fit(ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    const characters = Array.from(text);
    while (characters.length > 1 && ctx.measureText(characters.join("") + "…").width > width) {
      characters.pop();
    }
    return characters.join("").trimEnd() + "…";
  }

  function roundedRect(ctx, x, y, width, height, radius) {
    ctx.beginPath();
    ctx.moveTo(x + radius, y);
    ctx.arcTo(x + width, y, x + width, y + height, radius);
    ctx.arcTo(x + width, y + height, x, y + height, radius);
    ctx.arcTo(x, y + height, x, y, radius);
    ctx.arcTo(x, y, x + width, y, radius);
    ctx.closePath();
  }

  function dot(ctx, x, y, radius, colour) {
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
  }

  // Lays the picture out from the top; draws it too when `draw` (the first pass only
  // measures, to know the canvas's height). Returns the height.
  function layout(ctx, draw) {
    let y = MARGIN;
    const text = (words, x, baseline, size, weight, colour, align) => {
      if (!draw) return;
      ctx.font = font(size, weight);
      ctx.fillStyle = colour;
      ctx.textAlign = align || "left";
      ctx.fillText(words, x, baseline);
    };

    // The head: the app, the group, the date and the game, the rounds and the stake.
    ctx.font = font(30, 700);
    text("OFC Board", MARGIN, y + 30, 30, 700, LOOK.accent);
    y += 30 + 24;
    ctx.font = font(68, 700);
    for (const line of wrap(ctx, night.group, WIDTH - 2 * MARGIN).slice(0, 2)) {
      text(fit(ctx, line, WIDTH - 2 * MARGIN), MARGIN, y + 64, 68, 700, LOOK.fg);
      y += 82;
    }
    ctx.font = font(38, 600);
    for (const line of wrap(ctx, `${night.date} · ${night.game}`, WIDTH - 2 * MARGIN)) {
      text(line, MARGIN, y + 38, 38, 600, LOOK.fg);
      y += 50;
    }
    ctx.font = font(34);
    for (const line of wrap(ctx, night.details, WIDTH - 2 * MARGIN)) {
      text(line, MARGIN, y + 34, 34, 400, LOOK.muted);
      y += 46;
    }
    if (night.running) {
      y += 10;
      ctx.font = font(32, 700);
      const lines = wrap(ctx, night.running, WIDTH - 2 * MARGIN - 48);
      const height = lines.length * 44 + 24;
      if (draw) {
        ctx.fillStyle = LOOK.badBg;
        roundedRect(ctx, MARGIN, y, WIDTH - 2 * MARGIN, height, 18);
        ctx.fill();
      }
      lines.forEach((line, index) => {
        text(line, MARGIN + 24, y + 12 + 33 + index * 44, 32, 700, LOOK.bad);
      });
      y += height;
    }
    y += 36;

    y = card(ctx, draw, y, night.titles.standings, standings);
    y = card(ctx, draw, y, night.titles.payments, payments);
    y = card(ctx, draw, y, night.titles.chart, chart);
    return y - 36 + MARGIN;
  }

  // A white card with its title, and what `body` lays out in it; the y below it.
  function card(ctx, draw, top, title, body) {
    const left = MARGIN + PAD;
    let y = top + PAD;
    ctx.font = font(42, 700);
    const titleLines = wrap(ctx, title, INNER);
    const bodyTop = y + titleLines.length * 54 + 16;
    // Measured first, drawn over the card's background once its height is known.
    const bottom = body(ctx, false, left, bodyTop) + PAD;
    if (draw) {
      roundedRect(ctx, MARGIN, top, WIDTH - 2 * MARGIN, bottom - top, 28);
      ctx.fillStyle = LOOK.card;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = LOOK.line;
      ctx.stroke();
      ctx.font = font(42, 700);
      ctx.fillStyle = LOOK.fg;
      ctx.textAlign = "left";
      titleLines.forEach((line, index) => ctx.fillText(line, left, y + 42 + index * 54));
      body(ctx, true, left, bodyTop);
    }
    return bottom + 32;
  }

  // Everyone: a colour dot, the name (and "left", "capped"), the points and the money.
  function standings(ctx, draw, left, top) {
    const ROW = 76;
    ctx.font = font(40, 700);
    const moneyWidth = Math.max(...night.standings.map((p) => ctx.measureText(p.money).width), 0);
    ctx.font = font(36);
    const pointsWidth = Math.max(...night.standings.map((p) => ctx.measureText(p.points).width), 0);
    const right = left + INNER;
    const pointsRight = right - moneyWidth - 40;
    const nameLeft = left + 46;
    const nameRoom = pointsRight - pointsWidth - 32 - nameLeft;
    night.standings.forEach((player, index) => {
      const y = top + index * ROW;
      const baseline = y + ROW / 2 + 14;
      if (!draw) return;
      if (index) {
        ctx.fillStyle = LOOK.rule;
        ctx.fillRect(left, y, INNER, 2);
      }
      dot(ctx, left + 16, y + ROW / 2, 16, player.colour);
      ctx.textAlign = "left";
      ctx.font = font(24, 600);
      const badges = player.badges.join(" · ");
      const badgeWidth = badges ? ctx.measureText(badges).width + 28 : 0;
      ctx.font = font(40, 600);
      ctx.fillStyle = LOOK.fg;
      const name = fit(ctx, player.name, Math.max(nameRoom - badgeWidth, nameRoom / 2));
      ctx.fillText(name, nameLeft, baseline);
      if (badges) {
        const x = nameLeft + ctx.measureText(name).width + 16;
        ctx.font = font(24, 600);
        ctx.fillStyle = LOOK.muted;
        ctx.fillText(fit(ctx, badges, Math.max(0, pointsRight - pointsWidth - 24 - x)), x, baseline - 4);
      }
      const colour = player.sign === "plus" ? LOOK.good : player.sign === "minus" ? LOOK.bad : LOOK.fg;
      ctx.textAlign = "right";
      ctx.font = font(36);
      ctx.fillStyle = LOOK.muted;
      ctx.fillText(player.points, pointsRight, baseline);
      ctx.font = font(40, 700);
      ctx.fillStyle = colour;
      ctx.fillText(player.money, right, baseline);
    });
    return top + night.standings.length * ROW;
  }

  // Who pays whom: both players' dots, the line in words, and "Paid ✓" once it is.
  function payments(ctx, draw, left, top) {
    let y = top;
    ctx.textAlign = "left";
    if (!night.payments.length) {
      ctx.font = font(36);
      for (const line of wrap(ctx, night.nobody_owes, INNER)) {
        if (draw) { ctx.fillStyle = LOOK.muted; ctx.fillText(line, left, y + 40); }
        y += 50;
      }
      return y;
    }
    night.payments.forEach((payment, index) => {
      if (index) {
        y += 14;
        if (draw) { ctx.fillStyle = LOOK.rule; ctx.fillRect(left, y, INNER, 2); }
        y += 14;
      }
      ctx.font = font(38, 600);
      const lines = wrap(ctx, payment.words, INNER - 70);
      if (draw) {
        dot(ctx, left + 14, y + 30, 14, payment.from);
        dot(ctx, left + 44, y + 30, 14, payment.to);
        ctx.lineWidth = 3;
        ctx.strokeStyle = LOOK.card;
        ctx.beginPath();
        ctx.arc(left + 44, y + 30, 14, 0, 2 * Math.PI);
        ctx.stroke();
        ctx.font = font(38, 600);
        ctx.fillStyle = payment.state ? LOOK.muted : LOOK.fg;
        lines.forEach((line, number) => ctx.fillText(line, left + 74, y + 43 + number * 50));
      }
      y += lines.length * 50 + 6;
      if (payment.state) {
        if (draw) {
          ctx.font = font(30, 700);
          ctx.fillStyle = LOOK.good;
          ctx.fillText(payment.state, left + 74, y + 30);
        }
        y += 42;
      }
    });
    return y;
  }

  // The night's chart as the page draws it (its geometry in a small box), scaled up.
  function chart(ctx, draw, left, top) {
    const data = night.chart;
    const scale = INNER / data.width;
    const height = data.height * scale;
    if (!draw) return top + height;
    const at = (x, y) => [left + x * scale, top + y * scale];
    const segment = (line, width, colour) => {
      ctx.beginPath();
      ctx.moveTo(...at(line[0], line[1]));
      ctx.lineTo(...at(line[2], line[3]));
      ctx.lineWidth = width;
      ctx.strokeStyle = colour;
      ctx.stroke();
    };
    const size = data.font_size * scale;
    if (data.message) {
      segment(data.zero, 2, "rgba(27, 29, 33, 0.6)");
      ctx.font = font(size);
      ctx.fillStyle = LOOK.muted;
      ctx.textAlign = "center";
      ctx.fillText(data.message.text, ...at(data.message.x, data.message.y));
      return top + height;
    }
    for (const line of data.grid) segment(line, 2, "rgba(27, 29, 33, 0.12)");
    ctx.font = font(size);
    ctx.fillStyle = LOOK.muted;
    ctx.textAlign = "right";
    for (const tick of data.y_ticks) ctx.fillText(tick.text, ...at(tick.x, tick.y));
    ctx.textAlign = "center";
    for (const tick of data.x_ticks) ctx.fillText(tick.text, ...at(tick.x, tick.y));
    segment(data.zero, 3, "rgba(27, 29, 33, 0.6)");
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    for (const line of data.lines) {
      ctx.beginPath();
      line.points.forEach(([x, y], index) => {
        const [px, py] = at(x, y);
        if (index) ctx.lineTo(px, py); else ctx.moveTo(px, py);
      });
      ctx.lineWidth = 2 * scale;
      ctx.strokeStyle = line.colour;
      ctx.stroke();
      const end = line.points[line.points.length - 1];
      dot(ctx, ...at(end[0], end[1]), 3.2 * scale, line.colour);
      if (line.leader) segment(line.leader, scale, line.colour + "99");
    }
    // The labels in the text's colour, each as big as the room right of the chart lets it.
    ctx.textAlign = "left";
    ctx.fillStyle = LOOK.fg;
    for (const line of data.lines) {
      const [x, y] = at(line.label.x, line.label.y);
      const room = left + INNER + PAD - 12 - x;
      let labelSize = size;
      ctx.font = font(labelSize, 600);
      const wide = ctx.measureText(line.label.text).width;
      if (wide > room) labelSize = Math.max(size * 0.7, size * room / wide);
      ctx.font = font(labelSize, 600);
      ctx.fillText(fit(ctx, line.label.text, room), x, y);
    }
    return top + height;
  }

  function picture() {
    const canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = 100;
    canvas.height = Math.ceil(layout(canvas.getContext("2d"), false));
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = LOOK.bg;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    layout(ctx, true);
    return canvas;
  }

  // The picture, made once the page's fonts are in and again whenever the page's data
  // changed: a share sheet wants it at the tap itself (Safari refuses a share that
  // waited for something after the tap).
  let made = null;
  let file = null;
  function make() {
    const source = document.getElementById("night-picture");
    if (!source) return Promise.resolve(null);
    if (made && drawnFrom === source.textContent) return made;
    try { night = JSON.parse(source.textContent); } catch (error) { return Promise.resolve(null); }
    drawnFrom = source.textContent;
    file = null;
    const data = night;
    const making = new Promise((resolve) => picture().toBlob(resolve, "image/png")).then((blob) =>
      blob ? new File([blob], data.file, { type: "image/png" }) : null);
    made = making;
    making.then((done) => { if (made === making) file = done; });
    return making;
  }
  const ready = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();

  function download(blob) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = night.file;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  function canShare(made) {
    try {
      return Boolean(navigator.share && navigator.canShare && navigator.canShare({ files: [made] }));
    } catch (error) {
      return false;
    }
  }

  function share(made) {
    if (!made) return;
    if (!canShare(made)) { download(made); return; }
    navigator.share({ files: [made], title: `${night.group} · ${night.date}` }).catch((error) => {
      // Closing the share sheet is an answer; anything else, the picture is saved instead.
      if (error && error.name !== "AbortError") download(made);
    });
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest("[data-share-night]")) return;
    const source = document.getElementById("night-picture");
    if (file && source && drawnFrom === source.textContent) { share(file); return; }
    make().then(share);
  });

  // Shown with the page, and at once with each live part that brings it anew (before
  // the page is painted, so nothing moves), and drawn again from the new data.
  function show() {
    if (!document.getElementById("night-picture")) return;
    document.querySelectorAll("[data-share-night]").forEach((button) => { button.hidden = false; });
    ready.then(make);
  }
  document.addEventListener("htmx:afterSwap", show);
  show();
})();
