"""Iterative walks over the backward graph (graphs can be 100,000 nodes deep: no recursion)."""

from __future__ import annotations

from collections.abc import Iterable


def reachable(roots: Iterable) -> set:
    """Every autograd node reachable from ``roots`` through ``next_functions``."""
    stack = [n for n in roots if n is not None]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


class Budget:
    """Where a drawing stops: after ``max_nodes`` drawn nodes, or ``max_depth`` levels of autograd
    nodes below the roots (the roots' ``grad_fn`` is level 0; ``max_depth=2`` draws levels 0 and 1).
    """

    def __init__(self, max_nodes: int | None, max_depth: int | None):
        for name, value in (("max_nodes", max_nodes), ("max_depth", max_depth)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ValueError(f"{name} must be a non-negative int or None, got {value!r}")
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.cut = False  # set once something was left out

    def allows(self, total: int, depth: int) -> bool:
        """Whether a node at ``depth`` may be drawn if that makes (at most) ``total`` nodes."""
        ok = (self.max_nodes is None or total <= self.max_nodes) and (self.max_depth is None or depth < self.max_depth)
        if not ok:
            self.cut = True
        return ok

    def reason(self) -> str:
        parts = []
        if self.max_nodes is not None:
            parts.append(f"max_nodes={self.max_nodes}")
        if self.max_depth is not None:
            parts.append(f"max_depth={self.max_depth}")
        return "not drawn (" + ", ".join(parts) + ")"
