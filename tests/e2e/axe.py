"""axe-core in the browser tests: the accessibility checker, from the npm package that
`make test` installs (package.json), loaded into each page by the browser itself.

The script goes in as an init script of the browser context: Chromium runs those
outside the page's Content-Security-Policy, so the app's strict policy (no inline
script) stays in force for everything the app itself loads, and the test sees the
page exactly as a phone does.
"""

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2 added no rule at level A to axe).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

# axe leaves a text's contrast to a person when it cannot tell the background (a
# gradient, a box overlapping it, a translucent colour): measure those here, from the
# text's colour and the first opaque background behind it, mixing translucent layers.
MEASURE_REVIEWS = """(selectors) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour.a > 0) { layers.push(colour); if (colour.a >= 1) break; }
    }
    let result = {r: 255, g: 255, b: 255, a: 1};
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const luminance = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  return selectors.map((selector) => {
    const el = document.querySelector(selector);
    if (!el) return null;
    const style = getComputedStyle(el);
    const back = background(el);
    const fore = over(parse(style.color), back);
    const [l1, l2] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    return {selector, ratio: Math.round(ratio * 100) / 100, needed: large ? 3 : 4.5};
  });
}"""


def load_axe(context) -> None:
    """Every page the context opens has ``window.axe``."""
    assert AXE.exists(), "axe-core is missing: `make test` installs it (npm ci)"
    context.add_init_script(path=str(AXE))


def problems(page, *, colours_only: bool = False, rules: list[str] | None = None) -> list[str]:
    """What axe finds on the page as it is now, in words: each rule broken with the
    elements breaking it, and each text whose contrast axe left to review and that
    measures below WCAG AA. ``colours_only`` runs the contrast rule alone: what a
    change of colour scheme can break; ``rules`` runs only those rules."""
    if colours_only:
        rules = ["color-contrast"]
    run_only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    # Only what the test reads comes back: axe's whole report is a megabyte a page.
    results = page.evaluate(
        """(runOnly) => axe.run(document, {runOnly,
             resultTypes: ["violations", "incomplete"], elementRef: false, ancestry: false})
           .then((r) => ({
             violations: r.violations.map((rule) => ({id: rule.id, impact: rule.impact,
               targets: rule.nodes.slice(0, 5).map((node) => node.target.join(" "))})),
             reviews: r.incomplete.filter((rule) => rule.id === "color-contrast")
               .flatMap((rule) => rule.nodes).filter((node) => node.target.length === 1)
               .map((node) => node.target[0]),
           }))""",
        run_only,
    )
    found = [
        f"{rule['id']} ({rule['impact']}): " + "; ".join(rule["targets"])
        for rule in results["violations"]
    ]
    reviews = results["reviews"]
    for measured in page.evaluate(MEASURE_REVIEWS, reviews):
        if measured and measured["ratio"] < measured["needed"]:
            found.append(
                f"contrast {measured['ratio']}:1 < {measured['needed']}: {measured['selector']}"
            )
    return found
