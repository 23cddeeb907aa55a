"""No import cycles anywhere in the package (issue 12): every module's imports, lazy ones included
(TYPE_CHECKING-only imports left out, as the type checker's), form a graph without a cycle. The one-way
arrows between the rooms are import-linter's contracts (pyproject.toml), run by `make test`."""
from __future__ import annotations

import grimp


def strongly_connected(graph) -> list[list[str]]:
    """Tarjan's algorithm over the module graph: the groups of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(m: str) -> None:
        index[m] = low[m] = counter[0]
        counter[0] += 1
        stack.append(m)
        on_stack.add(m)
        for n in graph.find_modules_directly_imported_by(m):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                group.append(n)
                if n == m:
                    break
            groups.append(group)

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return groups


def test_no_import_cycles():
    graph = grimp.build_graph("gameclock", exclude_type_checking_imports=True)
    assert len(graph.modules) > 50  # the whole package was read
    cycles = [sorted(g) for g in strongly_connected(graph) if len(g) > 1]
    assert cycles == [], f"modules importing each other: {cycles}"


def test_the_cycle_finder_finds_a_cycle():
    # the check above must be able to fail: a made-up graph a -> b -> c -> a, d alone
    graph = grimp.ImportGraph()
    for m in "abcd":
        graph.add_module(m)
    for a, b in (("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")):
        graph.add_import(importer=a, imported=b)
    assert sorted(sorted(g) for g in strongly_connected(graph) if len(g) > 1) == [["a", "b", "c"]]
