"""MkDocs hooks of the documentation site (mkdocs.yml): the links that leave docs/.

The pages are written for a reader of the repository (on GitHub or in a checkout), so
some link out of docs/: to benchmarks/README.md, to data and source files. A strict
MkDocs build refuses such links, and the site holds no copy of those files. The Markdown
stays as it is (the links keep working in the repository); in the site only:

- each file of REPOSITORY_PAGES (the README, benchmarks/README.md) is a page, its links
  read from its place in the repository;
- a link to another file of the repository goes to a copy of it in the site, under
  `repository/`, and a link to a folder to a page listing the folder's files, copied;
- a link to a path the repository does not have is a warning, so `mkdocs build
  --strict` fails on it, as it does on a broken link inside docs/.

Only inline links (`[text](target)`, images too) outside code fences are read: the pages
have no reference-style links or HTML links out of docs/.
"""
import logging
import os
import posixpath
import re
from urllib.parse import urlsplit

from mkdocs.structure.files import File, InclusionLevel

# Under "mkdocs", so that a strict build counts its warnings.
log = logging.getLogger("mkdocs.hooks.repository_links")

# Files outside docs/ shown as pages of the site: repository path -> page.
REPOSITORY_PAGES = {"README.md": "readme.md", "benchmarks/README.md": "benchmarks.md"}
# Where the site keeps its copies of the other repository files that pages link to.
COPIES = "repository"
# An inline Markdown link's target: [text](target) or [text](target "title").
LINK = re.compile(r"(?<=\]\()([^)\s]+)(?=[)\s])")
# Fenced code blocks, whose brackets are not links.
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def repository_of(config) -> str:
    return os.path.dirname(os.path.abspath(config.config_file_path))


def docs_prefix(config) -> str:
    """docs_dir as a repository path ("docs")."""
    return os.path.relpath(config.docs_dir, repository_of(config)).replace(os.sep, "/")


def repository_path(src_uri: str, config) -> str:
    """Where the page with this source URI lives in the repository."""
    for path, page in REPOSITORY_PAGES.items():
        if page == src_uri:
            return path
    if src_uri.startswith(COPIES + "/"):
        return src_uri[len(COPIES) + 1:]
    return posixpath.join(docs_prefix(config), src_uri)


def relative_targets(markdown: str):
    """(start, end, path, anchor) of each relative link of the Markdown outside code
    fences; links with a scheme, absolute paths and anchors alone are not relative."""
    fences = [m.span() for m in FENCE.finditer(markdown)]
    for m in LINK.finditer(markdown):
        if any(a <= m.start() < b for a, b in fences):
            continue
        parts = urlsplit(m.group(1))
        if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
            continue
        yield m.start(), m.end(), parts.path, parts.fragment


def site_target(target: str, config) -> tuple[str | None, str]:
    """The site's source URI for a repository path, and what it is: "docs" (a file
    under docs/), "page" (REPOSITORY_PAGES), "file" or "folder" (a copy under COPIES);
    None when the repository has no such path."""
    docs = docs_prefix(config) + "/"
    where = os.path.join(repository_of(config), target)
    if target.startswith(docs):
        return (target[len(docs):], "docs") if os.path.exists(where) else (None, "missing")
    if target in REPOSITORY_PAGES:
        return REPOSITORY_PAGES[target], "page"
    if os.path.isfile(where):
        return posixpath.join(COPIES, target), "file"
    if os.path.isdir(where):
        return posixpath.join(COPIES, target, "index.md"), "folder"
    return None, "missing"


def leaving_links(src_uri: str, markdown: str, config):
    """The links of a page that the site must redirect: (start, end, repository target,
    anchor). A page under docs/ keeps its links inside docs/ (MkDocs checks those); a
    repository page has every relative link redirected."""
    here = repository_path(src_uri, config)
    for start, end, path, anchor in relative_targets(markdown):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(here), path))
        if target.startswith("../") or target == "..":
            log.warning(f"Doc file '{here}' links to '{path}', outside the repository.")
            continue
        inside = docs_prefix(config) + "/"
        if here.startswith(inside) and target.startswith(inside):
            continue
        yield start, end, target, anchor


def folder_files(folder: str, config) -> list[str]:
    where = os.path.join(repository_of(config), folder)
    return sorted(n for n in os.listdir(where) if os.path.isfile(os.path.join(where, n)))


def folder_listing(folder: str, names: list[str]) -> str:
    lines = [f"# {folder}/", "", f"The files of `{folder}/` in the repository:", ""]
    return "\n".join(lines + [f"- [{n}]({n})" for n in names]) + "\n"


def copy_file(target: str, files, config):
    uri = posixpath.join(COPIES, target)
    if files.get_file_from_path(uri) is None:
        files.append(File.generated(config, uri, abs_src_path=os.path.join(repository_of(config), target),
                                    inclusion=InclusionLevel.NOT_IN_NAV))


def on_files(files, config):
    """Add the repository pages, and the copies that the pages' links need."""
    for path, page in REPOSITORY_PAGES.items():
        files.append(File.generated(config, page, abs_src_path=os.path.join(repository_of(config), path)))
    for file in list(files):
        if not file.is_documentation_page() or file.inclusion.is_excluded():
            continue
        for _, _, target, _ in leaving_links(file.src_uri, file.content_string, config):
            uri, kind = site_target(target, config)
            if kind == "file":
                copy_file(target, files, config)
            elif kind == "folder" and files.get_file_from_path(uri) is None:
                names = folder_files(target, config)
                files.append(File.generated(config, uri, content=folder_listing(target, names),
                                            inclusion=InclusionLevel.NOT_IN_NAV))
                for name in names:
                    copy_file(posixpath.join(target, name), files, config)
    return files


def on_page_markdown(markdown, page, config, files):
    """Point the links that leave docs/ at the site's pages and copies."""
    here = page.file.src_uri
    pieces, done = [], 0
    for start, end, target, anchor in leaving_links(here, markdown, config):
        uri, kind = site_target(target, config)
        if uri is None:
            log.warning(f"Doc file '{repository_path(here, config)}' contains a link to "
                        f"'{target}', but the repository has no such file or folder.")
            continue
        link = posixpath.relpath(uri, posixpath.dirname(here) or ".")
        pieces += [markdown[done:start], link + (f"#{anchor}" if anchor else "")]
        done = end
    return "".join(pieces) + markdown[done:]
