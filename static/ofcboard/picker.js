// The card picker, in the page: the same taps as the plain form posts, without the round trips.
// The three text boxes (top, middle, bottom) stay the one source of truth, so typing,
// tapping and saving always agree.
(function () {
  "use strict";

  const ROWS = ["top", "middle", "bottom"];
  // The page's words, translated with it: board.html puts them on the form (English
  // without them), so they work offline too.
  const WORDS = (document.querySelector("[data-picker]") || { dataset: {} }).dataset;
  const word = (name, english) => WORDS[name] || english;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => values[key]);
  const ROW_NAMES = { top: word("rowTop", "top"), middle: word("rowMiddle", "middle"), bottom: word("rowBottom", "bottom") };
  const SUIT_WORDS = {
    spades: word("suitSpades", "spades"), hearts: word("suitHearts", "hearts"),
    diamonds: word("suitDiamonds", "diamonds"), clubs: word("suitClubs", "clubs"),
  };
  const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
  const RANKS = "23456789TJQKA";

  // The engine's notation: rank then suit, 10 for T, any case; JK for a joker.
  function canon(token) {
    let text = token.trim().toUpperCase();
    if (text === "JK") return "JK";
    if (text.startsWith("10")) text = "T" + text.slice(2);
    if (text.length !== 2 || !RANKS.includes(text[0]) || !"SHDC".includes(text[1])) return null;
    return text[0] + text[1].toLowerCase();
  }

  // Each card's name in words ("ace of spades"), as the page wrote it on the deck.
  const NAMES = {};
  for (const button of document.querySelectorAll(".deck [data-name]")) NAMES[button.dataset.card] = button.dataset.name;

  function face(code) {
    if (code === "JK") return { rank: "JK", symbol: "★", suit: "joker", label: NAMES.JK || word("joker", "joker") };
    const [symbol, suit] = SUITS[code[1]];
    const rank = code[0] === "T" ? "10" : code[0];
    return { rank, symbol, suit, label: NAMES[code] || `${rank} of ${SUIT_WORDS[suit]}` };
  }

  function setUp(form) {
    const inputs = {};
    const rowEls = {};
    for (const row of ROWS) {
      inputs[row] = form.querySelector(`[data-row-text="${row}"]`);
      rowEls[row] = form.querySelector(`.board-row[data-row="${row}"]`);
      if (!inputs[row] || !rowEls[row]) return;
    }
    const hint = form.querySelector("[data-hint]");
    const typedFlag = form.querySelector("[data-typed]");
    const defaultHint = hint ? hint.textContent : "";
    let held = null; // {card, from}: a deck card waiting for its row, or a placed card to move

    const size = (row) => Number(rowEls[row].dataset.size);
    const announcer = document.getElementById("announce");
    const say = (text) => {
      if (hint) hint.textContent = text || defaultHint;
      // Said aloud in the page's live region too (the hint itself is not live).
      if (announcer && text) announcer.textContent = announcer.textContent === text ? text + "\u00a0" : text;
    };
    const deckButtons = [...form.querySelectorAll('.deck button[name="add"]')];
    // A card on another board stays reachable and says whose it is: aria-disabled,
    // not disabled, once this script takes the taps.
    for (const button of deckButtons) {
      if (button.disabled) { button.disabled = false; button.setAttribute("aria-disabled", "true"); }
    }
    let deckCurrent = deckButtons.find((button) => !button.dataset.used) || deckButtons[0];

    function read() {
      const rows = {};
      for (const row of ROWS) {
        rows[row] = inputs[row].value.replace(/,/g, " ").split(/\s+/).map(canon).filter(Boolean);
      }
      return rows;
    }

    function write(rows) {
      for (const row of ROWS) inputs[row].value = rows[row].join(" ");
    }

    function chosen() {
      const radio = form.querySelector('input[name="row"]:checked');
      return radio ? radio.value : null;
    }

    function choose(row) {
      for (const radio of form.querySelectorAll('input[name="row"]')) radio.checked = radio.value === row;
    }

    function cardButton(row, code) {
      const card = face(code);
      const button = document.createElement("button");
      button.type = "submit";
      button.name = "remove";
      button.value = `${row} ${code}`;
      button.className = `pc ${card.suit}`;
      button.dataset.card = code;
      button.setAttribute("aria-label", fill(word("sayMove", "{card}, {row}: tap to move"), { card: card.label, row: ROW_NAMES[row] }));
      button.append(card.rank);
      const symbol = document.createElement("span");
      symbol.setAttribute("aria-hidden", "true");
      symbol.textContent = card.symbol;
      button.append(symbol);
      const isHeld = Boolean(held && held.from === row && held.card === code);
      button.classList.toggle("held", isHeld);
      button.setAttribute("aria-pressed", String(isHeld));
      return button;
    }

    function render() {
      const rows = read();
      const active = chosen();
      const counts = {};
      const where = {};
      // A placed card with focus is drawn anew: focus follows it (or its deck card).
      const focusedCard = document.activeElement && document.activeElement.closest(".slots button[data-card]");
      const refocus = focusedCard ? focusedCard.value : null;
      for (const row of ROWS) {
        const slots = rowEls[row].querySelector(".slots");
        slots.replaceChildren();
        const buttons = rows[row].slice(0, size(row)).map((code) => cardButton(row, code));
        // One tab stop a row: the arrow keys move between its cards.
        buttons.forEach((button, index) => { button.tabIndex = index === 0 ? 0 : -1; });
        slots.append(...buttons);
        const left = rowEls[row].querySelector("[data-left]");
        if (left) left.textContent = fill(word("sayLeft", "{left} of {size} left"), { left: Math.max(0, size(row) - rows[row].length), size: size(row) });
        for (const code of rows[row]) if (!where[code]) where[code] = row;
        for (let i = rows[row].length; i < size(row); i += 1) {
          const empty = document.createElement("span");
          empty.className = "pc empty";
          empty.setAttribute("aria-hidden", "true");
          slots.append(empty);
        }
        rowEls[row].classList.toggle("chosen", row === active);
        rowEls[row].classList.toggle("full", rows[row].length >= size(row));
        for (const code of rows[row]) counts[code] = (counts[code] || 0) + 1;
      }
      let jokers = counts.JK || 0;
      for (const button of deckButtons) {
        const code = button.value;
        let placed = false;
        if (code === "JK") {
          if (!button.disabled && jokers > 0) { placed = true; jokers -= 1; }
        } else {
          placed = Boolean(counts[code]);
        }
        button.classList.toggle("placed", placed);
        const isHeld = Boolean(held && held.from === null && held.card === code);
        button.classList.toggle("held", isHeld);
        // Pressed: picked up, waiting for its row. Its name says where a placed one is.
        button.setAttribute("aria-pressed", String(isHeld));
        if (!button.dataset.used) {
          const name = face(code).label;
          button.setAttribute("aria-label", placed && where[code]
            ? fill(word("sayOnBoard", "{card}, on your board: {row}"), { card: name, row: ROW_NAMES[where[code]] })
            : name);
        }
        button.tabIndex = button === deckCurrent ? 0 : -1;
      }
      // The rows' radios are one tab stop, though a row's cards sit between them.
      const radios = [...form.querySelectorAll('input[name="row"]')];
      const stop = radios.find((radio) => radio.checked) || radios[0];
      for (const radio of radios) radio.tabIndex = radio === stop ? 0 : -1;
      if (refocus) {
        const [row, code] = refocus.split(" ");
        const again = rowEls[row].querySelector(`.slots button[data-card="${code}"]`)
          || Object.values(rowEls).map((el) => el.querySelector(`.slots button[data-card="${code}"]`)).find(Boolean)
          || deckButtons.find((button) => button.value === code);
        if (again) { if (deckButtons.includes(again)) { deckCurrent = again; renderTabStops(); } again.focus(); }
      }
    }

    function renderTabStops() {
      for (const button of deckButtons) button.tabIndex = button === deckCurrent ? 0 : -1;
    }

    // The deck is one tab stop: the arrow keys move along a suit and between suits.
    function moveInDeck(from, key) {
      const suits = [...form.querySelectorAll(".deck .deck-suit")].map((el) => [...el.querySelectorAll('button[name="add"]')]);
      const s = suits.findIndex((cards) => cards.includes(from));
      const i = suits[s].indexOf(from);
      const flat = suits.flat();
      const at = flat.indexOf(from);
      if (key === "ArrowRight") return flat[Math.min(flat.length - 1, at + 1)];
      if (key === "ArrowLeft") return flat[Math.max(0, at - 1)];
      if (key === "ArrowDown" && s + 1 < suits.length) return suits[s + 1][Math.min(i, suits[s + 1].length - 1)];
      if (key === "ArrowUp" && s > 0) return suits[s - 1][Math.min(i, suits[s - 1].length - 1)];
      if (key === "Home") return suits[s][0];
      if (key === "End") return suits[s][suits[s].length - 1];
      return null;
    }

    form.addEventListener("keydown", (event) => {
      const card = event.target.closest && event.target.closest("button[data-card]");
      if (!card) return;
      let next = null;
      if (deckButtons.includes(card)) {
        next = moveInDeck(card, event.key);
        if (next) { deckCurrent = next; renderTabStops(); }
      } else {
        const cards = [...card.parentElement.querySelectorAll("button[data-card]")];
        const at = cards.indexOf(card);
        if (event.key === "ArrowRight" || event.key === "ArrowDown") next = cards[Math.min(cards.length - 1, at + 1)];
        if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = cards[Math.max(0, at - 1)];
        if (next) { for (const other of cards) other.tabIndex = other === next ? 0 : -1; }
      }
      if (next) { event.preventDefault(); next.focus(); }
    });

    function nextWithRoom(rows, start) {
      const order = start ? [start, ...ROWS] : ROWS;
      return order.find((row) => rows[row].length < size(row)) || null;
    }

    function place(code, row) {
      const rows = read();
      if (rows[row].length >= size(row)) {
        say(fill(word("sayFull", "The {row} is full: tap one of its cards to move it first."), { row: ROW_NAMES[row] }));
        return false;
      }
      rows[row].push(code);
      write(rows);
      if (rows[row].length >= size(row)) choose(nextWithRoom(rows, null));
      else choose(row);
      say("");
      return true;
    }

    function tapDeck(button) {
      const code = button.value;
      deckCurrent = button;
      if (button.dataset.used) { say(button.getAttribute("aria-label")); return; }
      if (button.classList.contains("placed") && code !== "JK") {
        say(fill(word("sayPlaced", "{card} is on your board already: tap it there to move it."), { card: face(code).label }));
        return;
      }
      if (held && held.from === null && held.card === code) {
        held = null;
        say("");
        return;
      }
      held = null;
      const row = chosen();
      if (row && place(code, row)) return;
      held = { card: code, from: null };
      say(fill(word("sayPickRow", "Now tap a row for the {card}."), { card: face(code).label }));
    }

    function tapPlaced(row, code) {
      if (held && held.from === row && held.card === code) {
        const rows = read();
        rows[row].splice(rows[row].indexOf(code), 1);
        write(rows);
        held = null;
        say(fill(word("sayBack", "The {card} is back in the deck."), { card: face(code).label }));
        return;
      }
      held = { card: code, from: row };
      say(fill(word("sayHeld", "Tap another row to move the {card}, or tap it again to take it off."), { card: face(code).label }));
    }

    function tapRow(row) {
      if (!held) {
        choose(row);
        say(fill(word("sayChosen", "Cards you tap now go to the {row}."), { row: ROW_NAMES[row] }));
        return;
      }
      const { card, from } = held;
      held = null;
      if (from === row) { choose(row); say(""); return; }
      if (from !== null) {
        const rows = read();
        if (rows[row].length >= size(row)) {
          say(fill(word("sayFull", "The {row} is full: tap one of its cards to move it first."), { row: ROW_NAMES[row] }));
          return;
        }
        rows[from].splice(rows[from].indexOf(card), 1);
        write(rows);
      }
      place(card, row);
    }

    form.addEventListener("click", (event) => {
      const add = event.target.closest('button[name="add"]');
      const remove = event.target.closest('button[name="remove"]');
      if (add) {
        event.preventDefault();
        tapDeck(add);
      } else if (remove) {
        event.preventDefault();
        const [row, code] = remove.value.split(" ");
        tapPlaced(row, code);
      } else if (event.target.matches('input[name="row"]')) {
        // A tap on the row's name: the label passes it on to its radio.
        tapRow(event.target.value);
      } else {
        const rowEl = event.target.closest(".board-row");
        if (!rowEl || event.target.closest("label")) return;
        tapRow(rowEl.dataset.row);
      }
      render();
    });
    form.addEventListener("input", (event) => {
      if (!event.target.matches("[data-row-text]")) return;
      // The text boxes were used: a refused save opens them again.
      if (typedFlag) typedFlag.value = "1";
      held = null;
      render();
    });
    render();
  }

  function start() {
    for (const form of document.querySelectorAll("form[data-picker]")) setUp(form);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
