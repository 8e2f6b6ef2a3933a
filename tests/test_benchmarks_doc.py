"""docs/benchmarks.md is the reference of every benchmark's current figures:
each script in bench/ has its place there, the page stays short enough to
read, and every section other docs and the code cite by name still exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
MAX_LINES = 400

# A citation by section name: `benchmarks.md, "Table night"`, also as a
# link, `[benchmarks.md](benchmarks.md) ("Live rooms: fan-out")`.
CITED = re.compile(r'benchmarks\.md(?:\]\([^)]*\))?(?:,\s*|\s*\(\s*)"([^"]+)"')
ANCHOR = re.compile(r"benchmarks\.md#([\w-]+)")


def _headings() -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in BENCHMARKS.read_text().splitlines()
        if line.startswith("#")
    ]


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading, as GitHub makes it."""
    kept = re.sub(r"[^\w\- ]", "", heading.lower())
    return kept.replace(" ", "-")


def _citing_texts() -> dict[str, str]:
    """Every doc and source file that may cite the page, comment markers
    removed and whitespace collapsed, so a citation broken across lines
    (in prose or in a comment block) reads as one."""
    paths = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    paths += [*(ROOT / "bench").glob("*.py"), *(ROOT / "vtt").rglob("*.py")]
    texts = {}
    for path in paths:
        if path == BENCHMARKS:
            continue
        lines = (re.sub(r"^\s*#\s?", "", line) for line in path.read_text().splitlines())
        texts[path.relative_to(ROOT).as_posix()] = " ".join(" ".join(lines).split())
    return texts


def test_every_bench_script_has_its_place():
    text = BENCHMARKS.read_text()
    missing = [
        path.name
        for path in sorted((ROOT / "bench").glob("*.py"))
        if f"bench/{path.name}" not in text
    ]
    assert not missing, f"not in docs/benchmarks.md: {missing}"


def test_the_page_stays_under_400_lines():
    lines = len(BENCHMARKS.read_text().splitlines())
    assert lines < MAX_LINES, f"docs/benchmarks.md has {lines} lines; keep it under {MAX_LINES}"


def test_every_cited_section_exists():
    headings = _headings()
    cited, broken = 0, []
    for name, text in _citing_texts().items():
        for section in CITED.findall(text):
            cited += 1
            if not any(heading.startswith(section) for heading in headings):
                broken.append(f'{name}: "{section}"')
    assert cited >= 5, "the citations of docs/benchmarks.md were not found"
    assert not broken, f"sections of docs/benchmarks.md cited but gone: {broken}"


def test_every_anchor_into_the_page_exists():
    slugs = {_slug(heading) for heading in _headings()}
    links = [
        (name, anchor) for name, text in _citing_texts().items() for anchor in ANCHOR.findall(text)
    ]
    links += [
        (BENCHMARKS.name, anchor)
        for anchor in re.findall(r"\]\(#([\w-]+)\)", BENCHMARKS.read_text())
    ]
    assert links, "the page's own table of benchmarks links to its sections"
    broken = [f"{name}#{anchor}" for name, anchor in links if anchor not in slugs]
    assert not broken, f"anchors into docs/benchmarks.md that lead nowhere: {broken}"
