"""Reading the JSON files a person gives: catalogues, positions, game records.

Every such file is untrusted. This module is the one reader they share: it reads at
most a size limit, decodes UTF-8, parses JSON and refuses what no hand-written file
needs (keys given twice, nesting deeper than :data:`MAX_DEPTH`, numbers JSON cannot
carry), and it collects problems so that a file is reported whole, one line a problem:

    catalogue.json: printing[3].letters: 'X' is not a letter (A, I, O, U)
    catalogue.json: gears[4].sectors[1]: gain_ink indicates exactly one ink, got 2

A value in a message is shown by :func:`show`: as it would look in the file, cut to
:data:`MAX_SHOWN` characters, with control characters escaped, so a message is always
one short line that cannot move the terminal's cursor.

:class:`SchemaChecker` checks data against a file format's JSON Schema and words every
problem for a person (positions of every game, Printing Press's catalogue).
"""
from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import pathlib
import unicodedata
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any

__all__ = ["FileDataError", "capped_lines", "MAX_DEPTH", "MAX_PROBLEMS", "MAX_SHOWN", "Problem", "Problems",
           "SchemaChecker", "decode_json", "file_names", "json_type", "not_a_folder", "plain_text", "read_bytes",
           "read_json", "show", "text_problem", "whole_number"]

MAX_DEPTH = 32        # the files' own nesting is at most 7 levels (a record's position: 9)
MAX_SHOWN = 60        # characters of a value shown in a message
MAX_PROBLEMS = 20     # problems listed in one error; the rest are counted


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
def capped_lines(lines: list[str], prefix: str = "") -> list[str]:
    """The first MAX_PROBLEMS lines of problems, and a last one counting the others."""
    more = len(lines) - MAX_PROBLEMS
    if more <= 0:
        return list(lines)
    return lines[:MAX_PROBLEMS] + [f"{prefix}... and {more} more problem{'s' if more > 1 else ''}"]


class FileDataError(ValueError):
    """Bad data in a file (a catalogue, a position, a record).

    ``str(error)`` has one line per problem, each ``"<source>: <where>: <reason>"``
    (``"<source>: <reason>"`` for the file as a whole); at most :data:`MAX_PROBLEMS`
    are listed and a last line counts the others. ``problems`` is the list of every
    (where, reason); ``where`` and ``reason`` are the first's; ``source`` is the file's
    name and ``path`` its full path (None when the data did not come from a file).
    """

    def __init__(self, source: str, where: str, reason: str, path: str | None = None,
                 problems: list | None = None):
        self.source = source
        self.problems = list(problems) if problems else [(where, reason)]
        self.where, self.reason = self.problems[0]
        self.path = path
        lines = [f"{source}: {w}: {r}" if w else f"{source}: {r}" for w, r in self.problems]
        super().__init__("\n".join(capped_lines(lines, f"{source}: ")))

    @classmethod
    def of(cls, source: str, problems: list, path: str | None = None):
        """The error listing `problems` [(where, reason), ...]."""
        where, reason = problems[0]
        return cls(source, where, reason, path=path, problems=problems)


class Problem(Exception):
    """One problem, raised inside a validator; the caller adds the file's name."""

    def __init__(self, where: str, reason: str):
        super().__init__(where, reason)
        self.where = where
        self.reason = reason


class Problems(Exception):
    """The problems found so far in a file (a validator collects them, checking the
    independent parts of a file one by one, and stops where later checks would only
    repeat them). Raised by :meth:`stop` when there are any."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def add(self, where: str, reason: str):
        self.found.append((where, reason))

    @contextlib.contextmanager
    def each(self):
        """Run a check; a Problem (or Problems) it raises is recorded and the caller
        goes on with the next part."""
        try:
            yield
        except Problem as p:
            self.add(p.where, p.reason)
        except Problems as ps:
            if ps is not self:
                self.found.extend(ps.found)

    def stop(self):
        """Raise self if anything was found: what follows depends on the parts checked."""
        if self.found:
            raise self

    def __bool__(self) -> bool:
        return bool(self.found)


def shaped(value: Any, kind: type) -> Any:
    """`value` if it is a `kind` (dict, list), else an empty one: a walk over a file the
    schema refused steps over a part of another shape."""
    return value if isinstance(value, kind) else kind()


def overlaps(where: str, other: str) -> bool:
    """Whether two places of a file ("players[0].orders[1]", "" for the whole file) are
    one, or one holds the other."""
    if len(where) > len(other):
        where, other = other, where
    return other == where or not where or other.startswith((where + ".", where + "["))


def places_beside(places: Iterable[tuple[str, str, Any]], problems: list[tuple[str, str]],
                  valid: Callable[[str, Any], bool]) -> list[tuple[str, str, Any]]:
    """The places (kind, where, value) of a file the schema refused that a check of their
    own may still read, so that its problems come with the schema's: each value of the
    schema's form for its kind (`valid(kind, value)`), away from the schema's `problems`
    (not at, in or around one)."""
    return [(kind, where, value) for kind, where, value in places
            if valid(kind, value) and not any(overlaps(where, w) for w, _ in problems)]


# ---------------------------------------------------------------------------------------
# Values in messages
# ---------------------------------------------------------------------------------------
class _Number(float):
    """A number JSON reads but no field can hold (1e400, NaN, a 5,000-digit integer),
    kept with its text for the messages."""

    text: str = ""

    def __new__(cls, text: str):
        try:
            value = float(text)
        except (OverflowError, ValueError):
            value = math.inf if not text.startswith("-") else -math.inf
        number = super().__new__(cls, value)
        number.text = text
        return number

    def __repr__(self) -> str:
        # A message that formats the value shows it as the file wrote it, not as "inf".
        return show(self)

    __str__ = __repr__


def whole_number(value: Any) -> bool:
    """Whether `value` is a whole number as JSON writes one: an int (not a bool), or one
    of more digits than any field holds (a _Number: it compares as an infinity, out of
    every field's range)."""
    if isinstance(value, _Number):
        return value.text.lstrip("-").isdigit()
    return isinstance(value, int) and not isinstance(value, bool)


def show(value: Any, limit: int = MAX_SHOWN) -> str:
    """A value as it would look in the file ('X' for text), at most `limit` characters,
    control characters escaped."""
    if isinstance(value, _Number):
        text = value.text
    elif isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=True)
        except (TypeError, ValueError, RecursionError):
            text = repr(value)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text.encode("ascii", "backslashreplace").decode("ascii") \
        if not text.isprintable() else text


def json_type(value: Any) -> str:
    """The JSON Schema type of a value read from JSON ("integer", "array", ...); a
    float is a "number" even when it is whole (3.0 is not a whole number here)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "array"
    return "object"


# Bidirectional overrides and marks reorder the text around them on a terminal.
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _unshown(ch: str) -> bool:
    """A character plain text may not hold: a control character, a line or paragraph
    separator (a line break as a newline is), a bidirectional override or mark, or half
    of a surrogate pair (a JSON escape such as \\ud800 alone: no text at all, and it
    cannot be written back out as UTF-8)."""
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI


def plain_text(value: str) -> str:
    """`value` with its control characters, bidirectional overrides and lone surrogates
    escaped (\\x1b, \\ud800), for a terminal: text from a file can then neither move the
    cursor nor reorder the line (rich passes escape codes through), and is always text."""
    return "".join(ch.encode("unicode_escape").decode("ascii") if _unshown(ch) else ch for ch in value)


def text_problem(value: str, kind: str = "names") -> str | None:
    """Why `value` cannot be shown as plain text (a name from a file, or another `kind`
    of text), or None: control characters (escape codes, newlines), bidirectional
    overrides and lone surrogates are refused."""
    for ch in value:
        if _unshown(ch):
            what = {"Cs": "a lone surrogate", "Zl": "the line separator", "Zp": "the paragraph separator"}.get(
                unicodedata.category(ch), "the direction character" if ch in _BIDI else "the control character")
            return f"{show(value)} contains {what} {ch!r}: {kind} are plain text"
    return None


def name_reason(error) -> str | None:
    """SchemaChecker's reason for a schema's name field (a `pattern` with maxLength 40,
    as the position schemas write names): the control character it holds."""
    if error.validator == "pattern" and error.schema.get("maxLength") == 40:
        return text_problem(error.instance)
    return None


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
def file_names(path) -> tuple[str, str]:
    """How messages name the file at `path`: its name (the source), and its path as given."""
    file = pathlib.Path(path)
    return file.name or str(file), str(file)


def not_a_folder(path) -> str | None:
    """What is wrong with `path` given as a folder when something else is there (a file,
    a pipe): "PATH is a file, not a folder"; None for a folder or nothing at all (whether
    that will do is the caller's)."""
    if os.path.exists(path) and not os.path.isdir(path):
        return f"{path} is a file, not a folder"
    return None


def read_bytes(path, error: type[FileDataError], limit: int, what: str) -> tuple[bytes, str, str]:
    """The bytes of the file at `path` (at most `limit`), its name and its full path;
    `error` (a FileDataError class) when it cannot be read or is too large for `what`."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a path is a str or path-like, got {type(path).__name__}")
    if not os.fspath(path):     # pathlib reads "" as ".", the folder here
        raise error(what, "", "an empty path: name its file", "")
    file = pathlib.Path(path)
    source, shown = file_names(path)
    try:
        # Opened without waiting: a named pipe nobody writes to would block open() for
        # ever; with no writer it then reads as empty, with one it is read as it comes.
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with open(fd, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as e:
        raise error(source, "", f"cannot read {show(shown, 200)} ({e.strerror or e})", shown) from None
    if len(raw) > limit:
        raise error(source, "", f"more than {limit:,} bytes: too large for {what}", shown)
    return raw, source, shown


class _Object(dict):
    """A JSON object that remembers the keys the file gave twice (json keeps the last)."""

    duplicates: tuple = ()


def _object_pairs(pairs: list) -> _Object:
    obj = _Object(pairs)
    if len(obj) < len(pairs):
        seen: set = set()
        twice = []
        for k, _ in pairs:
            if k in seen:
                twice.append(k)
            seen.add(k)
        obj.duplicates = tuple(twice)
    return obj


def _float(text: str):
    value = float(text)
    return value if math.isfinite(value) else _Number(text)


def _int(text: str):
    # Python refuses to convert integers of more than 4,300 digits (a ValueError
    # without a place); no field holds more than a few digits.
    return int(text) if len(text) <= 30 else _Number(text)


def path_text(parts) -> str:
    """A place in a file from its keys and indices: players[1].orders[0][1]."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif isinstance(p, str) and p.isidentifier():
            out += f".{p}" if out else p
        else:
            out += f"[{show(str(p), 40)}]"
    return out or "top level"


def structure_problems(data: Any, max_items: int | None = None, what: str = "the file"
                       ) -> list[tuple[str, str]]:
    """Keys given twice, nesting beyond MAX_DEPTH and (with `max_items`) lists or objects
    longer than any of `what` has, everywhere (without recursion)."""
    found = []
    stack: list[tuple[Any, tuple]] = [(data, ())]
    while stack:
        value, where = stack.pop()
        if len(where) > MAX_DEPTH:
            found.append((path_text(where[:MAX_DEPTH]),
                          f"nested more than {MAX_DEPTH} levels deep (no field needs it)"))
            continue
        if max_items is not None and isinstance(value, (dict, list)) and len(value) > max_items:
            found.append((path_text(where), f"{len(value):,} entries: nothing in {what} has "
                                            f"more than {max_items}"))
            continue
        if isinstance(value, dict):
            for key in getattr(value, "duplicates", ()):
                found.append((path_text(where), f"key {show(key)} is given twice"))
            stack.extend((v, where + (k,)) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, where + (i,)) for i, v in reversed(list(enumerate(value))))
    return found


def _too_deep(text: str) -> str:
    """The line and column where `text` nests deeper than MAX_DEPTH (outside strings)."""
    depth, line, column, in_string, escaped = 0, 1, 0, False, False
    for ch in text:
        column += 1
        if ch == "\n":
            line, column = line + 1, 0
        elif in_string:
            in_string = escaped or ch != '"'
            escaped = not escaped and ch == "\\"
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"line {line}, column {column}"
        elif ch in "]}":
            depth -= 1
    return ""


def decode_json(raw: bytes, source: str, error: type[FileDataError], path: str | None = None,
                max_items: int | None = None, what: str = "the file") -> Any:
    """Bytes -> JSON data, or `error` naming the place (line and column for the syntax,
    the field for keys given twice, deep nesting and lists longer than `max_items`)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(source, f"byte {e.start}", "not UTF-8 text", path) from None
    try:
        data = json.loads(text, object_pairs_hook=_object_pairs, parse_float=_float,
                          parse_int=_int, parse_constant=_Number)
    except json.JSONDecodeError as e:
        why = e.msg if e.msg != "Invalid control character at" else \
            f"a control character ({show(text[e.pos])}) inside a string"
        raise error(source, f"line {e.lineno}, column {e.colno}", f"invalid JSON: {why}", path) from None
    except RecursionError:
        raise error(source, _too_deep(text), f"nested more than {MAX_DEPTH} levels deep "
                                             "(no field needs it)", path) from None
    problems = structure_problems(data, max_items, what)
    if problems:
        raise error.of(source, problems, path)
    return data


def read_json(path, error: type[FileDataError], limit: int, what: str) -> tuple[Any, str, str]:
    """The JSON data of the file at `path`, its name and its full path (read_bytes, then
    decode_json)."""
    raw, source, shown = read_bytes(path, error, limit, what)
    return decode_json(raw, source, error, shown), source, shown


def readable_json(data: Any, width: int, number_width: int | None = None) -> str:
    """JSON for a person to read: a value on one line where it fits in `width` columns
    (indent included), else its entries a line each; with `number_width`, a long list of
    whole numbers runs over a few lines of that width instead (a tableau a row a line)."""
    def compact(value, indent):
        pad = "  " * indent
        flat = json.dumps(value)
        if len(flat) + len(pad) <= width or not isinstance(value, (dict, list)):
            return flat
        if isinstance(value, dict):
            items = [f"{pad}  {json.dumps(k)}: {compact(v, indent + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + f"\n{pad}}}"
        if number_width is not None and all(isinstance(v, int) for v in value):
            lines: list[str] = []
            line: list[str] = []
            for v in value:
                if line and len(", ".join(line + [json.dumps(v)])) + len(pad) > number_width:
                    lines.append(", ".join(line))
                    line = []
                line.append(json.dumps(v))
            lines.append(", ".join(line))
            return "[\n" + ",\n".join(f"{pad}  {x}" for x in lines) + f"\n{pad}]"
        items = [f"{pad}  {compact(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return compact(data, 0)


def packaged_bytes(package: str, name: str) -> tuple[bytes, str, str]:
    """The bytes of the file `name` in the data folder of `package` (shipped with it), its
    name and its full path, as read_bytes gives a file's."""
    resource = resources.files(package) / "data" / name
    return resource.read_bytes(), name, str(resource)


def data_file_readers(parse, error: type[FileDataError], package: str, builtin: str, limit: int,
                      max_items: int, what: str, other_kind=None):
    """(load, from_bytes, builtin) for a kind of data file that `parse(data, source,
    path)` checks and builds (a game's catalogue). `load(path=None)` reads the file at
    `path` (at most `limit` bytes), or for None or "" the package's own `builtin` file;
    `from_bytes(raw, source, path=None)` takes the bytes as read_bytes gives them. Both
    raise `error` naming the file and every problem (size, UTF-8, nesting, keys given
    twice, `other_kind(data)`'s [(where, reason)]: another kind of file, said before its
    lists are held to `max_items`, then lists over `max_items`, then parse's).
    `builtin()` is load(), read once."""
    def from_bytes(raw: bytes, source: str, path: str | None = None):
        """The data built from a file's bytes (as read_bytes gives them)."""
        data = decode_json(raw, source, error, path)
        checks = (other_kind,) if other_kind else ()
        raise_problems(data, source, path, error, *checks, lambda d: structure_problems(d, max_items, what))
        return parse(data, source, path)

    def load(path: str | os.PathLike | None = None):
        """The data of the file at `path`, or of the built-in file for None (or "")."""
        if path is None or path == "":
            return from_bytes(*packaged_bytes(package, builtin))
        return from_bytes(*read_bytes(path, error, limit, what))

    @functools.lru_cache(maxsize=1)
    def builtin_data():
        """The built-in file's data, read once."""
        return load()
    return load, from_bytes, builtin_data


def raise_problems(data: Any, source: str, path: str | None, error: type[FileDataError], *checks) -> None:
    """`error` listing the problems of `data` that the first of `checks` to find any
    finds (each check, data -> [(where, reason)], reads what the earlier ones passed)."""
    for check in checks:
        problems = check(data)
        if problems:
            raise error.of(source, problems, path)


@functools.lru_cache(maxsize=None)
def packaged_json(package: str, name: str) -> Any:
    """The JSON of the file `name` in the data folder of `package` (a schema, a table),
    read once: the same object every call, not to be changed."""
    return json.loads(packaged_bytes(package, name)[0])



# ---------------------------------------------------------------------------------------
# JSON Schema: every problem of a file, in the order of its fields, in plain words
# ---------------------------------------------------------------------------------------
TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text",
              "boolean": "true or false", "object": "an object {...}", "array": "a list [...]",
              "null": "null"}
_TYPE_ORDER = ("integer", "number", "string", "boolean", "array", "object", "null")


def _whole_number(checker, value) -> bool:
    # JSON Schema counts 3.0 as an integer; a field that holds a number of things does
    # not take 3.0 (nor true): "must be a whole number, got 3.0".
    return isinstance(value, int) and not isinstance(value, bool)


class SchemaChecker:
    """A JSON Schema (draft 2020-12) that reports a file's problems as (where, reason)
    pairs a person can act on: in the order of the file's fields, one per place, the
    most telling branch of an anyOf/oneOf, a value's wrong type before its range, values
    shown in short excerpts (:func:`show`).

    `reason(error)` may give a file's own words for an error (a pattern's meaning, a
    `not`): a str, or None for the shared wording; `place(error, path)` the place to
    name (the path in the file by default). The schema's own keys may say it
    too: a subschema's "errorMessage" is the reason for its `pattern`, `not`, `anyOf` and `oneOf` errors.
    """

    def __init__(self, schema: dict, reason=None, excerpt: int = MAX_SHOWN, place=None):
        import jsonschema
        base = jsonschema.Draft202012Validator
        base.check_schema(schema)
        cls = jsonschema.validators.extend(
            base, type_checker=base.TYPE_CHECKER.redefine("integer", _whole_number))
        self.schema = schema
        self.validator = cls(schema)
        self.own_reason = reason
        self.own_place = place
        self.excerpt = excerpt
        self._defs: dict[str, Any] = {}     # the validators of valid_as, by name

    def valid_as(self, name: str, value: Any) -> bool:
        """Whether `value` passes the schema's own test of one kind of value, its
        `$defs[name]` (with the schema's whole numbers): a check beside a file the schema
        refused reads only such values (places_beside)."""
        if name not in self._defs:
            self._defs[name] = self.validator.evolve(schema=self.schema["$defs"][name])
        return self._defs[name].is_valid(value)

    # -- the errors ------------------------------------------------------------------------
    def problems(self, data: Any) -> list[tuple[str, str]]:
        """Every problem the schema finds, in the order of the file's fields."""
        problems = []
        errors = sorted(self.validator.iter_errors(data), key=lambda e: _order_key(data, e.absolute_path))
        for top in errors:
            if top.validator in ("if", "then", "else", "allOf"):
                continue        # a failed `then` or allOf reports its own errors
            for error in self._picked(top):
                where = list(error.absolute_path)
                if self.own_place:
                    where = self.own_place(error, where)
                problem = (path_text(where), self.reason(error))
                if problem not in problems:
                    problems.append(problem)
        # A value of the wrong type fails its range too: its type is the problem to fix.
        mistyped = {w for w, r in problems if r.startswith("must be ")}
        return [(w, r) for w, r in problems if w not in mistyped or r.startswith("must be ")]

    def types(self, schema: Any) -> set:
        """The JSON types a (sub)schema accepts, following anyOf/oneOf and local $refs."""
        if not isinstance(schema, dict):
            return set()
        if "$ref" in schema:
            ref = schema["$ref"]
            if ref.startswith("#/$defs/"):
                return self.types(self.schema.get("$defs", {}).get(ref[len("#/$defs/"):]))
        if "type" in schema:
            t = schema["type"]
            return set(t) if isinstance(t, list) else {t}
        if "const" in schema:
            return {json_type(schema["const"])}
        if "enum" in schema:
            return {json_type(v) for v in schema["enum"]}
        out: set = set()
        for key in ("anyOf", "oneOf"):
            for sub in schema.get(key, ()):
                out |= self.types(sub)
        return out

    def _picked(self, error) -> list:
        """The errors to report for `error`: inside an anyOf/oneOf, the most telling
        branch (leave out the branches made for another type of value, then take the one
        with the deepest error), and every error of that branch (an object can fail in
        several of its keys), each picked again."""
        if not error.context:
            return [error]
        if isinstance(error.schema, dict) and error.schema.get("errorMessage"):
            return [error]        # the alternatives said in the schema's own words
        t = json_type(error.instance)
        subs = []
        for e in error.context:
            if len(e.relative_path) == 0:
                types = self.types(e.schema)
                if types and t not in types and not (t == "integer" and "number" in types):
                    continue        # a branch for another type of value
            subs.append(e)
        if not subs:
            return [error]
        best = max(subs, key=lambda e: (len(e.absolute_path), e.validator not in ("anyOf", "oneOf")))
        branch = best.relative_schema_path[0]
        return [picked for e in subs if e.relative_schema_path[0] == branch for picked in self._picked(e)]

    def show(self, value: Any) -> str:
        return show(value, self.excerpt)

    def reason(self, error) -> str:
        """An error in plain words."""
        own = self.own_reason(error) if self.own_reason else None
        if own:
            return own
        v, inst, schema, value = error.validator, error.instance, error.schema, error.validator_value
        shown = self.show
        if v in ("pattern", "not", "anyOf", "oneOf") and isinstance(schema, dict) and schema.get("errorMessage"):
            return f"{shown(inst)}: {schema['errorMessage']}" if v != "not" else schema["errorMessage"]
        if v == "required":
            missing = [k for k in value if isinstance(inst, dict) and k not in inst]
            return f"missing key {shown(missing[0])}" if missing else message(error)
        if v == "additionalProperties":
            allowed = list(schema.get("properties", {}))
            extra = [k for k in inst if k not in allowed]
            return f"unknown key {shown(extra[0])} (expected {', '.join(allowed)})"
        if v == "type":
            want: list[str] = value if isinstance(value, list) else [value]
            if "integer" in want and whole_number(inst):
                # A whole number, but more digits than any field holds.
                lo, hi = schema.get("minimum"), schema.get("maximum")
                return f"{shown(inst)} is out of range" + (f" ({lo}-{hi})" if lo is not None and hi is not None
                                                          else "")
            return f"must be {' or '.join(TYPE_WORDS.get(w, w) for w in want)}, got {shown(inst)}"
        if v == "enum":
            return f"{shown(inst)} is not one of {', '.join(map(str, value))}"
        if v == "const":
            return f"must be {shown(value)}, got {shown(inst)}"
        if v in ("minimum", "maximum"):
            lo, hi = schema.get("minimum"), schema.get("maximum")
            if lo is not None and hi is not None:
                return f"{shown(inst)} is out of range ({lo}-{hi})"
            return f"{shown(inst)} must be {'at least' if v == 'minimum' else 'at most'} {value}"
        if v == "minItems":
            return f"{len(inst)} entries, {value} needed" if schema.get("maxItems") == value \
                else f"{len(inst)} entries, at least {value} needed"
        if v == "maxItems":
            return f"{len(inst)} entries, {value} allowed" if schema.get("minItems") == value \
                else f"{len(inst)} entries, at most {value} allowed"
        if v == "maxLength":
            return f"{len(inst)} characters, at most {value} allowed"
        if v == "minProperties":
            return "needs at least one entry"
        if v == "maxProperties":
            return f"{len(inst)} entries, at most {value} allowed"
        if v == "uniqueItems":
            return "an entry is listed twice"
        if v == "pattern":
            return f"{shown(inst)} does not match {value}"
        if v in ("anyOf", "oneOf"):
            types = self.types(schema)
            if types and json_type(inst) not in types:
                words = [TYPE_WORDS[t] for t in _TYPE_ORDER if t in types]
                listed = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
                return f"must be {listed}, got {shown(inst)}"
            what = schema.get("description", "")
            return f"{shown(inst)} is not valid here" + (f" ({what})" if what else "")
        return message(error)


def message(error) -> str:
    """jsonschema's own message, which quotes the whole value: cut short, escaped."""
    text = plain_text(error.message)
    return text if len(text) <= 200 else text[:197] + "..."


def _order_key(data, path) -> tuple:
    """Sort errors by where they are in the file (keys in the order written)."""
    key = []
    node = data
    for p in path:
        if isinstance(node, dict):
            keys = list(node)
            key.append(keys.index(p) if p in keys else len(keys))
            node = node.get(p)
        elif isinstance(node, list) and isinstance(p, int):
            key.append(p)
            node = node[p] if p < len(node) else None
        else:
            key.append(0)
            node = None
    return tuple(key)
