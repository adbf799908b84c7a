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
  -- Placement inlay hints: turn them on with vim.lsp.inlay_hint.enable() (`inlayHints = false`
  -- above turns them off in the server). Code lenses over scope blocks (`codeLens = true`):
  -- vim.lsp.codelens.refresh() shows them, vim.lsp.codelens.run() lists their objects here.
  commands = {
    ['tfscope.showObjects'] = function(command, context)
      local client = vim.lsp.get_client_by_id(context.client_id)
      local items = vim.lsp.util.locations_to_items(command.arguments[3], client and client.offset_encoding or 'utf-16')
      vim.fn.setloclist(0, {}, ' ', { title = command.title, items = items })
      vim.cmd.lopen()
    end,
  },
}
