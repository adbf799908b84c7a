-- tfscope for Neovim 0.11+: copy this file to ~/.config/nvim/lsp/tfscope.lua (or put
-- editors/nvim on 'runtimepath'), then call vim.lsp.enable('tfscope') in init.lua.
-- It is also the shape nvim-lspconfig ships in its lsp/ folder, so it works beside it.
---@type vim.lsp.Config
return {
  -- `tfscope` must be on PATH (pipx install tfscope); or use { '/path/to/python', '-m', 'tfscope', 'serve' }
  cmd = { 'tfscope', 'serve' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', '.git' },
  -- Served to the server's workspace/configuration requests (section "tfscope"); the keys
  -- mirror the VS Code settings, and [tool.tfscope] in pyproject.toml still applies.
  settings = {
    tfscope = {},
  },
}
