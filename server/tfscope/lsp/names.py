"""Names the server advertises and clients send back: code-action kinds, commands, settings."""

QUICK_FIX = "quickfix"
FIX_ALL = "source.fixAll.tfscope"
NOTEBOOK_FIX_ALL = "notebook.source.fixAll.tfscope"  # VS Code's notebook.codeActionsOnSave kind
CODE_ACTION_KINDS = (QUICK_FIX, FIX_ALL, NOTEBOOK_FIX_ALL)
APPLY_FIX_ALL_COMMAND = "tfscope.applyFixAll"
SHOW_OBJECTS_COMMAND = "tfscope.showObjects"  # a code lens's, run by the client: uri, position, [location]
SETTINGS_SECTION = "tfscope"
DIAGNOSTIC_IDENTIFIER = "tfscope"
