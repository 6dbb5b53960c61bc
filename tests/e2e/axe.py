"""axe-core, the accessibility audit (issue 21), vendored in tests/e2e/vendor/axe-core/ (its
version in README there), as the browser tests run it: WCAG 2.0-2.2 A and AA rules and axe's
best practices (names of buttons, links, fields and groups, landmarks, headings, colour
contrast, ARIA used as specified...), keeping the findings of serious or critical impact.
The page's context needs ``bypass_csp=True``: the strict policy forbids the audit's script."""

from __future__ import annotations

from pathlib import Path

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')
                    + ' :: ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}));
}"""


def serious_findings(page) -> list[dict]:
    """The serious and critical findings of axe on the page as it is now (axe put in the page
    here unless its context has it in every page already: ``audited``)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=AXE)
    return page.evaluate(RUN, TAGS)


def audited(context):
    """``context`` with axe in each of its pages from the start, for a tour that audits every
    page it opens: one script handed over once, not half a megabyte sent again per page."""
    context.add_init_script(AXE)
    return context
