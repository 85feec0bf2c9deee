"""List product functions and classes that no product code reaches (only tests, bench, or nobody).

Usage: ``python .ci/reach.py`` (exit status 1 when any is found). The project's rule (issue 41)
is that every function and class of the product packages has a caller in the product itself:
code reached only by ``tests/`` or ``bench/`` is either wired where the design needs it,
deleted, or named in ``.ci/reach_allow.txt`` with the reason it stays.

What it checks, with the standard library's :mod:`ast` only (nothing is imported or run):

- **Definitions**: every function and class at the top level of a module of the product
  packages (:data:`PACKAGES`), and the public methods (no leading underscore; properties
  included) of those classes. Nested functions and classes are not checked. Exempt: dunder
  names (called by Python), and functions whose decorator hands them to a framework that
  calls them (:data:`REGISTERING`: typer commands, pydantic validators).
- **Uses**: every name read (``ast.Name``), attribute read (``ast.Attribute``, and
  ``getattr`` / ``hasattr`` with a literal name) and name imported by ``from … import`` in
  product code, outside the definition itself (a function calling itself, a class naming
  itself in its own methods do not count); the functions named by ``[project.scripts]`` in
  ``pyproject.toml`` and the graphs in ``langgraph.json``. In a package's ``__init__.py`` an
  import is a re-export, not a use. Exports in a package's ``__all__`` count as reached only
  when the package's docstring says its ``__all__`` is public API (the words "public API":
  ``checkpoints``, ``grace.data``), so a name exported for users is reached by being
  documented as theirs; any other ``__all__`` is not a use.
- Matching is by name (the last part: ``obj.close()`` reaches every ``close``), so the check
  is a lower bound: a definition that shares its name with a used one passes unseen. Strings
  other than those above (``importlib`` paths, notebooks, the docs) are not read.

``.ci/reach_allow.txt`` keeps the exceptions, one ``module:name  # reason`` a line
(``confidence.judges:LLMSelfEvaluator``, ``checkpoints.blobs:BlobSqliteSaver.delete_thread``);
blank lines and lines starting with ``#`` are comments. A line without a reason, one naming
nothing defined, or one whose definition is reached after all is a failure too, so the list
stays true.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

PACKAGES = ("graph", "nodes", "grace", "confidence", "checkpoints")
ELSEWHERE = ("tests", "bench")
ALLOW_FILE = Path(".ci") / "reach_allow.txt"
REGISTERING = frozenset({"command", "callback", "field_validator", "model_validator"})
"""Decorators that register the function with a framework which calls it."""
PUBLIC_API = re.compile(r"public\s+api", re.IGNORECASE)


@dataclass(frozen=True)
class Definition:
    """A product function, class or public method: ``module:name`` at ``path:line``."""

    module: str
    name: str
    path: str
    line: int

    @property
    def key(self) -> str:
        """``module:name`` (``name`` is ``Class.method`` for a method)."""
        return f"{self.module}:{self.name}"


@dataclass
class Uses:
    """Names used, each with the scopes (``area:module:qualname``) that use it."""

    scopes: dict[str, set[str]] = field(default_factory=dict)

    def add(self, name: str, scope: str) -> None:
        """Record that ``scope`` uses ``name``."""
        self.scopes.setdefault(name, set()).add(scope)

    def areas(self, definition: Definition) -> set[str]:
        """The areas (product, tests, bench) that use ``definition`` outside itself."""
        own = f"product:{definition.key}"
        return {
            scope.split(":", 1)[0]
            for scope in self.scopes.get(definition.name.rsplit(".", 1)[-1], ())
            if scope != own and not scope.startswith(own + ".")
        }


def module_name(root: Path, path: Path) -> str:
    """The dotted module name of ``path`` (a package's ``__init__.py`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_files(root: Path, packages: tuple[str, ...]) -> Iterator[Path]:
    """Every ``.py`` file under the given top-level directories, in order."""
    for package in packages:
        yield from sorted((root / package).rglob("*.py"))


def _exempt(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Whether Python or a framework calls ``node`` (a dunder, a registering decorator)."""
    if node.name.startswith("__") and node.name.endswith("__"):
        return True
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in REGISTERING:
            return True
    return False


def _public_methods(module: str, path: str, cls: ast.ClassDef) -> Iterator[Definition]:
    """The public methods of ``cls`` that no framework is said to call."""
    for node in cls.body:
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and not node.name.startswith("_")
            and not _exempt(node)
        ):
            yield Definition(module, f"{cls.name}.{node.name}", path, node.lineno)


def definitions(module: str, path: str, tree: ast.Module) -> Iterator[Definition]:
    """The module's top-level functions and classes and their classes' public methods."""
    for top in tree.body:
        if not isinstance(top, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if not _exempt(top):
            yield Definition(module, top.name, path, top.lineno)
        if isinstance(top, ast.ClassDef):
            yield from _public_methods(module, path, top)


class _UseVisitor(ast.NodeVisitor):
    """Collect the names a module reads, each with the qualified scope that reads it."""

    def __init__(self, uses: Uses, prefix: str, reexports: bool) -> None:
        self.uses, self.prefix, self.reexports = uses, prefix, reexports
        self.stack: list[str] = []

    def _scope(self) -> str:
        return self.prefix + ".".join(self.stack)

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.uses.add(node.id, self._scope())

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.uses.add(node.attr, self._scope())
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            self.uses.add(node.args[1].value, self._scope())
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if not self.reexports:
            for alias in node.names:
                self.uses.add(alias.name, self._scope())


def _assigned_list(node: ast.stmt, name: str) -> list[ast.expr] | None:
    """The elements of ``name = [...]`` (or a tuple, or annotated), else None."""
    value: ast.expr | None
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign):
        targets, value = [node.target], node.value
    else:
        return None
    named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
    return value.elts if named and isinstance(value, ast.List | ast.Tuple) else None


def public_exports(tree: ast.Module) -> list[str]:
    """The names in ``__all__`` of a package documented as public API (else none)."""
    if not PUBLIC_API.search(ast.get_docstring(tree) or ""):
        return []
    for node in tree.body:
        elements = _assigned_list(node, "__all__")
        if elements is not None:
            return [str(e.value) for e in elements if isinstance(e, ast.Constant)]
    return []


def entry_points(root: Path) -> list[str]:
    """Names the installed console scripts and ``langgraph.json``'s graphs point at."""
    names = []
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        names += [target.rsplit(":", 1)[-1] for target in project.get("scripts", {}).values()]
    studio = root / "langgraph.json"
    if studio.is_file():
        graphs = json.loads(studio.read_text(encoding="utf-8")).get("graphs", {})
        names += [target.rsplit(":", 1)[-1] for target in graphs.values()]
    return names


def scan(root: Path) -> tuple[list[Definition], Uses]:
    """Every product definition, and every use by product code, tests and bench."""
    found: list[Definition] = []
    uses = Uses()
    for area, packages in (("product", PACKAGES), *((a, (a,)) for a in ELSEWHERE)):
        for path in python_files(root, packages):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            module = module_name(root, path)
            init = path.name == "__init__.py" and area == "product"
            _UseVisitor(uses, f"{area}:{module}:", reexports=init).visit(tree)
            if area == "product":
                found += definitions(module, str(path.relative_to(root)), tree)
                for name in public_exports(tree) if init else []:
                    uses.add(name, f"product:{module}:__all__")
    for name in entry_points(root):
        uses.add(name, "product:entry points:")
    return found, uses


def read_allow_list(path: Path) -> tuple[dict[str, str], list[str]]:
    """``{module:name: reason}`` from the allow-list file, and its malformed lines."""
    allowed: dict[str, str] = {}
    problems: list[str] = []
    if not path.is_file():
        return allowed, problems
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = (part.strip() for part in line.partition("#"))
        if ":" not in key or " " in key or not reason:
            problems.append(f"{path.name}:{number}: want 'module:name  # reason', got {line!r}")
        else:
            allowed[key] = reason
    return allowed, problems


def _where(areas: set[str]) -> str:
    """How a finding is reached, in words."""
    others = sorted(areas - {"product"})
    return "reached only by " + " and ".join(others) if others else "used nowhere"


def check(root: Path) -> tuple[list[str], int]:
    """Failure lines for ``root``, and how many definitions were checked."""
    found, uses = scan(root)
    allowed, failures = read_allow_list(root / ALLOW_FILE)
    keys = {d.key for d in found}
    for definition in found:
        areas = uses.areas(definition)
        if definition.key in allowed:
            if "product" in areas:
                failures.append(f"{ALLOW_FILE}: {definition.key} is reached: remove its line")
        elif "product" not in areas:
            failures.append(f"{definition.path}:{definition.line} {definition.key} {_where(areas)}")
    failures += [f"{ALLOW_FILE}: {k} names no definition" for k in sorted(allowed.keys() - keys)]
    return failures, len(found)


def main(root: Path | None = None) -> int:
    """Print the failures (1) or a one-line summary (0)."""
    root = root or Path(__file__).resolve().parent.parent
    failures, checked = check(root)
    for line in failures:
        sys.stdout.write(line + "\n")
    if not failures:
        allowed, _ = read_allow_list(root / ALLOW_FILE)
        sys.stdout.write(
            f"reach: {checked} product functions, classes and public methods, each used by "
            f"product code or allow-listed ({len(allowed)} in {ALLOW_FILE})\n"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
