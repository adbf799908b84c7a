"""Helpers of the VS Code tests: the packaged .vsix and the code-server toolchain."""
