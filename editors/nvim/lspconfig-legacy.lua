-- tfscope through nvim-lspconfig's require('lspconfig') framework (Neovim 0.8 to 0.10).
-- On Neovim 0.11+ use lsp/tfscope.lua with vim.lsp.enable('tfscope'), with or without nvim-lspconfig.
local configs = require('lspconfig.configs')
local util = require('lspconfig.util')

if not configs.tfscope then
  configs.tfscope = {
    default_config = {
      cmd = { 'tfscope', 'serve' },
      filetypes = { 'python' },
      root_dir = util.root_pattern('pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', '.git'),
      single_file_support = true,
      settings = { tfscope = {} },
    },
  }
end

require('lspconfig').tfscope.setup({})
