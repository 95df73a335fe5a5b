"""Every relative link in the docs leads somewhere: in README.md,
CONTRIBUTING.md, docs/**/*.md and hardware/**/*.md (the files git tracks),
each `[text](path)`, `[text](path#anchor)`, `![alt](path)`, `[id]: path`,
`<img src=...>` and `<a href=...>` names a file or folder of the repository,
and each `#anchor` (in the same file or in another Markdown file) is the
GitHub slug of one of that file's headings. Links to http(s) and mailto,
and anything in a fenced code block, in inline code or in an HTML comment,
are not checked.

A slug is GitHub's: the heading's text (links and inline code as they read),
lower case, every character but letters, digits, `_`, `-` and spaces
dropped, each space a hyphen; a heading whose slug came before gets -1, then
-2, and so on.

Stands alone (no conftest fixtures): it reads files, nothing else."""

import os
import re
import subprocess
from urllib.parse import unquote

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tracked():
    """Every file git tracks (the index: staged files too), as
    repository-relative paths with forward slashes; None without git."""
    try:
        r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    return {p for p in r.stdout.decode("utf-8", "surrogateescape").split("\0") if p}


TRACKED = _tracked()
# The folders that hold a tracked file: a link may name a folder (GitHub shows its listing and README).
FOLDERS = {"/".join(p.split("/")[:i]) for p in TRACKED or () for i in range(1, p.count("/") + 1)}


def _checked_files():
    if TRACKED is None:  # no git: what is on the disk
        found = []
        for top in ("README.md", "CONTRIBUTING.md"):
            if os.path.isfile(os.path.join(ROOT, top)):
                found.append(top)
        for folder in ("docs", "hardware"):
            for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
                found += [os.path.relpath(os.path.join(dirpath, n), ROOT).replace(os.sep, "/")
                          for n in names if n.endswith(".md")]
        return sorted(found)
    return sorted(p for p in TRACKED if p in ("README.md", "CONTRIBUTING.md")
                  or (p.endswith(".md") and p.split("/", 1)[0] in ("docs", "hardware")))


# --- reading Markdown -------------------------------------------------------------

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def _blank(match):
    """The matched text with every character but newlines gone, so line numbers hold."""
    return "\n" * match.group(0).count("\n")


def prose_keeping_code_spans(text):
    """``text`` with fenced code blocks and HTML comments blanked, but inline
    code kept: a heading's inline code is part of its slug."""
    lines = text.split("\n")
    out, fence = [], None
    for line in lines:
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append("")
        elif fence is not None:
            closing = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closing and not line.strip(fence[0] + " "):
                fence = None
            out.append("")
        else:
            out.append(line)
    return COMMENT.sub(_blank, "\n".join(out))


def prose(text):
    """``text`` without its fenced code blocks, HTML comments and inline code,
    each replaced by as many newlines as it held (so a line number in the
    result is the line in the file)."""
    # A code span stays within its paragraph: a blank line ends it.
    blocks = re.split(r"(\n[ \t]*\n)", prose_keeping_code_spans(text))
    return "".join(CODE_SPAN.sub(_blank, b) for b in blocks)


ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*?\b(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.I)


def heading_text(raw):
    """What a heading reads as: links and images as their text, inline code
    as its content, HTML tags and emphasis marks gone."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"!?\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"(`+)(.+?)\1", r"\2", text)
    return text.replace("*", "").strip()


def slug(text):
    """GitHub's slug of a heading's text (before its -1, -2 for repeats)."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(text):
    """Every anchor a file's headings (and its <a name/id>) give, in order,
    with GitHub's -1, -2 suffixes for repeats."""
    counts, found = {}, set()
    lines = prose_keeping_code_spans(text).split("\n")
    for i, line in enumerate(lines):
        m = ATX.match(line)
        raw = None
        if m:
            raw = m.group(2)
        elif i and SETEXT.match(line) and lines[i - 1].strip() and not lines[i - 1].lstrip().startswith(("|", "#")) \
                and not ATX.match(lines[i - 1]) and not SETEXT.match(lines[i - 1]):
            raw = lines[i - 1]
        if raw is not None:
            base = slug(heading_text(raw))
            s = base
            while s in counts:
                counts[base] += 1
                s = "%s-%d" % (base, counts[base])
            counts[s] = 0
            found.add(s)
        found.update(HTML_ANCHOR.findall(line))
    return found


# [text](target) and ![alt](target), the target optionally in <> and with a "title".
INLINE = re.compile(r"\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
                    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)", re.M)
HTML_LINK = re.compile(r"<(?:img|a|source)\s[^>]*?\b(?:src|href|srcset)\s*=\s*[\"']([^\"']*)[\"']", re.I)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def links(text):
    """[(line number, target)] of every link in ``text``'s prose, in the order they come."""
    found = []
    body = prose(text)
    for pattern in (INLINE, REFERENCE, HTML_LINK):
        for m in pattern.finditer(body):
            target = m.group(1).strip()
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            found.append((m.start(1), target))
    return [(body.count("\n", 0, start) + 1, target) for start, target in sorted(found)]


def _exists(path):
    """Whether the repository-relative ``path`` (forward slashes, no
    trailing slash) is a file or folder of the repository."""
    if TRACKED is None:
        return os.path.exists(os.path.join(ROOT, *path.split("/")))
    return path in TRACKED or path in FOLDERS or path == ""


def _read(path):
    with open(os.path.join(ROOT, *path.split("/")), encoding="utf-8") as f:
        return f.read()


def problems(path, text=None):
    """What is wrong with the links of the repository's Markdown file
    ``path``: one line each, naming the file and line, the link and the
    trouble."""
    text = _read(path) if text is None else text
    folder = os.path.dirname(path)
    said, cache = [], {}
    for line, target in links(text):
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue  # http(s), mailto and the like, or an empty link: not ours to check
        where, _, anchor = target.partition("#")
        where = unquote(where.split("?", 1)[0])
        anchor = unquote(anchor)
        if where:
            joined = where.lstrip("/") if where.startswith("/") else os.path.join(folder, where)
            resolved = os.path.normpath(joined).replace(os.sep, "/")
            if resolved == ".":
                resolved = ""
            if resolved == ".." or resolved.startswith("../"):
                said.append("%s:%d: (%s): leads out of the repository" % (path, line, target))
                continue
            if not _exists(resolved):
                said.append("%s:%d: (%s): no such file or folder in the repository: %s" % (path, line, target,
                                                                                          resolved or "."))
                continue
        else:
            resolved = path
        if not anchor:
            continue
        page = resolved
        if page != path and not page.endswith(".md"):
            readme = (page + "/README.md").lstrip("/")
            if _exists(readme):
                page = readme  # a folder's link shows its README
            else:
                continue  # an anchor into a source file (#L10) or a picture: GitHub's, not a heading
        if page not in cache:
            cache[page] = anchors(text if page == path else _read(page))
        if anchor not in cache[page]:
            said.append("%s:%d: (%s): no heading in %s has the anchor #%s" % (path, line, target, page, anchor))
    return said


@pytest.mark.parametrize("path", _checked_files())
def test_every_relative_link_resolves(path):
    said = problems(path)
    assert not said, "broken links in %s:\n%s" % (path, "\n".join(said))


def test_the_files_checked_include_the_readme_and_the_docs():
    files = _checked_files()
    assert "README.md" in files
    assert any(f.startswith("docs/") for f in files) and any(f.startswith("hardware/") for f in files)


# --- the checker itself ---------------------------------------------------------------


def test_slugs_are_githubs():
    text = ("# The board\n\n## `make web`: the board in a browser\n\n## Power-on\n\n## Power-on\n\n"
            "### What's [new](x.md)?\n\n## 1. Game, *then* mode\n\n```\n# not a heading\n```\n\n"
            "Setext heading\n---\n")
    assert anchors(text) == {"the-board", "make-web-the-board-in-a-browser", "power-on", "power-on-1",
                             "whats-new", "1-game-then-mode", "setext-heading"}


def test_links_skip_code_comments_and_the_web():
    text = ("[a](README.md) and `[b](no.md)` and ``[c](`no`.md)``\n\n```sh\n[d](no.md)\n```\n\n"
            "<!-- [e](no.md) -->\n[f](https://example.com/no.md) [g](mailto:x@example.com)\n"
            "![h](docs/web.png \"title\") <img src=\"docs/web.png\" alt=\"\">\n[i]: docs/\n")
    assert links(text) == [(1, "README.md"), (8, "https://example.com/no.md"), (8, "mailto:x@example.com"),
                           (9, "docs/web.png"), (9, "docs/web.png"), (10, "docs/")]


def test_a_broken_link_or_anchor_is_named():
    text = ("# Top\n\n## A part\n\n[ok](#a-part) [ok](#top) [ok](docs/) [ok](docs/web.png)\n"
            "[bad](#no-part) [bad](docs/nowhere.md) [bad](README.md#no-such-heading) [bad](../outside.md)\n")
    said = problems("README.md", text)
    assert len(said) == 4, said
    assert said[0] == "README.md:6: (#no-part): no heading in README.md has the anchor #no-part"
    assert said[1] == "README.md:6: (docs/nowhere.md): no such file or folder in the repository: docs/nowhere.md"
    assert said[2].startswith("README.md:6: (README.md#no-such-heading): no heading in README.md")
    assert said[3] == "README.md:6: (../outside.md): leads out of the repository"
