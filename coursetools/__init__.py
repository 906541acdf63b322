"""Course tooling: building, releasing and grading the nbgrader notebooks."""
