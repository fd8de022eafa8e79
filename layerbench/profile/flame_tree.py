"""Collapsed stacks as a tree of frames: each node a frame reached by one path from the root,
with the samples of every stack through it (its inclusive count) and those that ended in it
(its self count). A flame graph draws this tree; a difference graph compares two of them node
by node, along the same paths."""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from layerbench.profile.collapsed_stacks import Stack


@dataclass
class FlameNode:
    frame: str
    count: int = 0
    self_count: int = 0
    children: dict[str, "FlameNode"] = field(default_factory=dict)

    def child(self, frame: str) -> "FlameNode":
        node = self.children.get(frame)
        if node is None:
            node = self.children[frame] = FlameNode(frame)
        return node

    def ordered(self) -> list["FlameNode"]:
        """Children in alphabetical order of their frames, as flame graphs draw them: the
        x-axis is not time, and the same frames stay side by side across graphs."""
        return [self.children[frame] for frame in sorted(self.children)]

    def find(self, path: Stack) -> "FlameNode | None":
        node: FlameNode | None = self
        for frame in path:
            node = node.children.get(frame) if node else None
        return node

    def walk(self, path: Stack = ()) -> Iterator[tuple[Stack, "FlameNode"]]:
        """Every node below this one with its path, parents before children."""
        for child in self.ordered():
            below = (*path, child.frame)
            yield below, child
            yield from child.walk(below)


ROOT = "all"


def flame_tree(stacks: Mapping[Stack, int]) -> FlameNode:
    """The tree of ``stacks`` under a root named ``all`` holding every sample."""
    root = FlameNode(ROOT)
    for stack, count in stacks.items():
        root.count += count
        node = root
        for frame in stack:
            node = node.child(frame)
            node.count += count
        node.self_count += count
    return root
